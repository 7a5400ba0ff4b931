/** How the comparison's figures are written on the page (en-GB, pounds). */
const pounds = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP', minimumFractionDigits: 2, maximumFractionDigits: 2 });
const smallPounds = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP', minimumFractionDigits: 4, maximumFractionDigits: 4 });
const whole = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 0 });
const oneDecimal = new Intl.NumberFormat('en-GB', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

export const formatPdc = (value: number) => value.toFixed(3);
export const formatPercent = (share: number) => `${oneDecimal.format(share * 100)}%`;
export const formatCount = (value: number) => whole.format(value);
export const formatOneDecimal = (value: number) => oneDecimal.format(value);
export const formatPounds = (value: number) => pounds.format(value);
/** Per-day costs are fractions of a penny: four decimals. */
export const formatUnitCost = (value: number | null) => (value === null ? '—' : smallPounds.format(value));
const price = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP', minimumFractionDigits: 2, maximumFractionDigits: 4 });
/** A message price as entered: at least pence, up to hundredths of a penny. */
export const formatPrice = (value: number) => price.format(value);
