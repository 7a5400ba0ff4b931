import type { Dosage, Quantity, Timing } from './fhir-schemas';

/** Length of one UCUM time unit in days (months and years as their calendar averages). */
const daysPerUnit: Record<string, number> = {
  s: 1 / 86_400,
  min: 1 / 1_440,
  h: 1 / 24,
  d: 1,
  wk: 7,
  mo: 30.4375,
  a: 365.25,
};

/** Unit names FHIR sources write in Quantity.unit instead of the UCUM code. */
const unitAliases: Record<string, string> = {
  second: 's',
  seconds: 's',
  minute: 'min',
  minutes: 'min',
  hour: 'h',
  hours: 'h',
  hr: 'h',
  day: 'd',
  days: 'd',
  week: 'wk',
  weeks: 'wk',
  month: 'mo',
  months: 'mo',
  year: 'a',
  years: 'a',
};

function timeUnitOf(quantity: Quantity): string | null {
  const raw = (quantity.code ?? quantity.unit)?.trim().toLowerCase();
  if (raw === undefined || raw === '') return null;
  const unit = unitAliases[raw] ?? raw;
  return unit in daysPerUnit ? unit : null;
}

/** A duration Quantity (days supply, expected supply duration) in days; null when not a time. */
export function durationInDays(quantity: Quantity | undefined): number | null {
  if (quantity?.value === undefined || quantity.value < 0) return null;
  // A days supply without a unit is days by definition of the element.
  const unit = timeUnitOf(quantity) ?? (quantity.code === undefined && quantity.unit === undefined ? 'd' : null);
  return unit === null ? null : quantity.value * (daysPerUnit[unit] as number);
}

/** Doses a day written as HL7 timing abbreviations (v3 GTSAbbreviation). */
const timingCodeDosesPerDay: Record<string, number> = {
  QD: 1,
  QOD: 0.5,
  QAM: 1,
  QPM: 1,
  QHS: 1,
  AM: 1,
  PM: 1,
  BID: 2,
  TID: 3,
  QID: 4,
  Q1H: 24,
  Q2H: 12,
  Q3H: 8,
  Q4H: 6,
  Q6H: 4,
  Q8H: 3,
  Q12H: 2,
  WK: 1 / 7,
  MO: 1 / 30.4375,
};

/** Doses a day described by a Timing, or null when it does not say (as needed, a one-off event list). */
export function dosesPerDayOfTiming(timing: Timing | undefined): number | null {
  if (timing === undefined) return null;
  const repeat = timing.repeat;
  if (repeat?.period !== undefined && repeat.period > 0 && repeat.periodUnit !== undefined) {
    const unitDays = daysPerUnit[repeat.periodUnit];
    if (unitDays !== undefined) {
      const perDay = (repeat.frequency ?? 1) / (repeat.period * unitDays);
      // "On Monday and Thursday" narrows a daily frequency to those days of the week.
      const weekdays = repeat.dayOfWeek?.length;
      return weekdays !== undefined && weekdays > 0 && weekdays < 7 && repeat.periodUnit === 'd' ? (perDay * weekdays) / 7 : perDay;
    }
  }
  const timesADay = repeat?.timeOfDay?.length ?? repeat?.when?.length;
  if (timesADay !== undefined && timesADay > 0) return timesADay;
  for (const coding of timing.code?.coding ?? []) {
    const perDay = coding.code === undefined ? undefined : timingCodeDosesPerDay[coding.code.toUpperCase()];
    if (perDay !== undefined) return perDay;
  }
  return null;
}

/** Dosage lines that apply together: the first line's sequence (FHIR: same sequence = concurrent). */
function concurrentDosages(dosages: Dosage[] | undefined): Dosage[] {
  const first = dosages?.[0];
  if (dosages === undefined || first === undefined) return [];
  return dosages.filter((dosage) => dosage.sequence === first.sequence);
}

/** Doses a day over the dosage lines that apply together, or null when no line states a frequency. */
export function dosesPerDayOfDosages(dosages: Dosage[] | undefined): number | null {
  let total: number | null = null;
  for (const dosage of concurrentDosages(dosages)) {
    const perDay = dosesPerDayOfTiming(dosage.timing);
    if (perDay !== null) total = (total ?? 0) + perDay;
  }
  return total;
}

/** Clock times of the doses ("08:00"), from timing.repeat.timeOfDay. */
export function doseTimesOfDosages(dosages: Dosage[] | undefined): string[] {
  const times = new Set<string>();
  for (const dosage of concurrentDosages(dosages)) {
    for (const time of dosage.timing?.repeat?.timeOfDay ?? []) {
      const match = /^(\d{2}):(\d{2})/.exec(time);
      if (match !== null) times.add(`${match[1]}:${match[2]}`);
    }
  }
  return [...times].sort();
}

function sameUnit(left: Quantity, right: Quantity): boolean {
  const leftUnit = (left.code ?? left.unit)?.trim().toLowerCase();
  const rightUnit = (right.code ?? right.unit)?.trim().toLowerCase();
  // A quantity without a unit counts units of the medication, like a dose without one.
  return leftUnit === undefined || rightUnit === undefined || leftUnit === rightUnit;
}

/**
 * Days a dispensed quantity lasts at the prescribed dose: quantity ÷ (amount per dose × doses a day),
 * when both are stated in the same unit (480 mL at 10 mL twice a day lasts 24 days).
 */
export function supplyDaysOfQuantity(quantity: Quantity | undefined, dosages: Dosage[] | undefined): number | null {
  if (quantity?.value === undefined || quantity.value <= 0) return null;
  const lines = concurrentDosages(dosages);
  const dosesPerDay = dosesPerDayOfDosages(dosages);
  const dose = lines[0]?.doseAndRate?.[0]?.doseQuantity;
  if (dosesPerDay === null || dosesPerDay <= 0 || dose?.value === undefined || dose.value <= 0) return null;
  if (!sameUnit(quantity, dose)) return null;
  return quantity.value / (dose.value * dosesPerDay);
}
