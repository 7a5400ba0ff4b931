/**
 * Where demo patients live. The demo deployment is set in the United Kingdom: the nine English regions
 * plus the three devolved nations, weighted roughly by population in millions (ONS mid-year estimates),
 * with a few of the languages most often spoken at home after English given a small share (modelling
 * assumption, roughly following the 2021 Census).
 */
export type Region = {
  id: string;
  weight: number;
  timezone: string;
  /** Relative weights of BCP 47 language tags. */
  languages: Readonly<Record<string, number>>;
};

const englishMostly = { en: 92, pl: 2, ur: 1.5, pa: 1.5, ro: 1, es: 1, ar: 1 };

export const regions: readonly Region[] = [
  { id: 'north-east', weight: 2.6, timezone: 'Europe/London', languages: englishMostly },
  { id: 'north-west', weight: 7.4, timezone: 'Europe/London', languages: englishMostly },
  { id: 'yorkshire-and-the-humber', weight: 5.5, timezone: 'Europe/London', languages: englishMostly },
  { id: 'east-midlands', weight: 4.9, timezone: 'Europe/London', languages: englishMostly },
  { id: 'west-midlands', weight: 5.9, timezone: 'Europe/London', languages: englishMostly },
  { id: 'east-of-england', weight: 6.3, timezone: 'Europe/London', languages: englishMostly },
  {
    id: 'london',
    weight: 8.8,
    timezone: 'Europe/London',
    languages: { en: 78, pl: 3, ro: 3, bn: 3, ur: 2, pt: 2, es: 2, ar: 2, tr: 2, pa: 1, so: 2 },
  },
  { id: 'south-east', weight: 9.3, timezone: 'Europe/London', languages: englishMostly },
  { id: 'south-west', weight: 5.7, timezone: 'Europe/London', languages: englishMostly },
  { id: 'wales', weight: 3.1, timezone: 'Europe/London', languages: { en: 88, cy: 10, pl: 2 } },
  { id: 'scotland', weight: 5.4, timezone: 'Europe/London', languages: { en: 96, pl: 2, gd: 1, ur: 1 } },
  { id: 'northern-ireland', weight: 1.9, timezone: 'Europe/London', languages: { en: 96, pl: 2, ga: 1, lt: 1 } },
];
