/**
 * Today's doses of a patient as slots: one per dose of each medicine running today, at its prescribed time,
 * with the answer already recorded for it, whatever observed it (the app, a WhatsApp or SMS reply, a smart
 * bottle). Pure, so the page and the answer's server check compute the same slots.
 */
import { createLocalTimeConverter, localDayNumber } from '@/engine/time/local-day';

/** With no dose times on record: the messaging loop's first-dose fallback (08:00), the rest spread to 22:00. */
const fallbackFirstMinute = 8 * 60;
const fallbackLastMinute = 22 * 60;

export type ActiveRegimen = { productId: string; medication: string; dosesPerDay: number; doseTimes: string[] };
export type RecordedDose = { id: string; productId: string | null; scheduledAt: Date; status: string; source: string };
export type DoseSlot = {
  productId: string;
  medication: string;
  /** 0-based position of the dose among the medicine's doses today. */
  index: number;
  of: number;
  scheduledAt: Date;
  /** Local wall-clock time, HH:MM. */
  localTime: string;
  recorded: RecordedDose | null;
};

function minuteOf(time: string): number | null {
  const match = /^(\d{1,2}):(\d{2})/.exec(time.trim());
  if (match === null) return null;
  const minute = Number(match[1]) * 60 + Number(match[2]);
  return minute >= 0 && minute < 24 * 60 ? minute : null;
}

/** The local minutes of a regimen's doses in a day: its dose times when they name every dose, else evenly spread. */
export function doseMinutes(regimen: Pick<ActiveRegimen, 'dosesPerDay' | 'doseTimes'>): number[] {
  const count = Math.round(regimen.dosesPerDay);
  if (count < 1) return [];
  const stated = regimen.doseTimes.map(minuteOf).filter((minute): minute is number => minute !== null);
  if (stated.length === count) return [...stated].sort((a, b) => a - b);
  if (count === 1) return [stated[0] ?? fallbackFirstMinute];
  const step = (fallbackLastMinute - fallbackFirstMinute) / (count - 1);
  return Array.from({ length: count }, (_, index) => Math.round(fallbackFirstMinute + index * step));
}

function clock(minute: number): string {
  return `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
}

/** The patient's local day of `now` and its bounds as instants. */
export function localToday(now: Date, timeZone: string): { day: number; start: Date; end: Date } {
  const day = localDayNumber(now, timeZone);
  const toInstant = createLocalTimeConverter();
  return { day, start: new Date(toInstant(timeZone, day, 0) * 1000), end: new Date(toInstant(timeZone, day + 1, 0) * 1000) };
}

/**
 * The slots of one local day. A recorded dose at a slot's exact time answers that slot (the app records at
 * the slot's time); the others fill the medicine's remaining slots in time order (the first of the day the
 * first open slot), since a reply's dose time need not be a slot's time. A dose recorded without a product
 * belongs to the medicine only when it is the one running today.
 */
export function doseSlotsOfDay(options: {
  regimens: ActiveRegimen[];
  recorded: RecordedDose[];
  day: number;
  timeZone: string;
}): DoseSlot[] {
  const toInstant = createLocalTimeConverter();
  const soleProduct = options.regimens.length === 1 ? options.regimens[0]!.productId : null;
  const slots: DoseSlot[] = [];
  for (const regimen of options.regimens) {
    const recorded = options.recorded
      .filter((dose) => (dose.productId ?? soleProduct) === regimen.productId)
      .sort((a, b) => a.scheduledAt.getTime() - b.scheduledAt.getTime());
    const minutes = doseMinutes(regimen);
    const times = minutes.map((minute) => toInstant(options.timeZone, options.day, minute) * 1000);
    const answers: (RecordedDose | null)[] = times.map(() => null);
    const unplaced: RecordedDose[] = [];
    for (const dose of recorded) {
      const exact = times.findIndex((time, index) => time === dose.scheduledAt.getTime() && answers[index] === null);
      if (exact >= 0) answers[exact] = dose;
      else unplaced.push(dose);
    }
    for (const dose of unplaced) {
      const open = answers.indexOf(null);
      if (open < 0) break;
      answers[open] = dose;
    }
    minutes.forEach((minute, index) => {
      slots.push({
        productId: regimen.productId,
        medication: regimen.medication,
        index,
        of: minutes.length,
        scheduledAt: new Date(times[index]!),
        localTime: clock(minute),
        recorded: answers[index] ?? null,
      });
    });
  }
  return slots.sort((a, b) => a.scheduledAt.getTime() - b.scheduledAt.getTime() || a.medication.localeCompare(b.medication));
}
