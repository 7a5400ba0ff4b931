/**
 * The value of a filter's "All …" choice in an address; the same as leaving the filter out. Apart from the
 * features' zod schemas, because the filter forms that use it run in the browser.
 */
export const ALL_FILTER_VALUE = 'all';
