/**
 * The PQA adherence measure for one patient: the treatment period runs from the index prescription
 * start date (first fill in the measurement period) to the end of the period; only fills dated in the
 * period count; a patient is eligible with fills on at least two different days, and adherent when
 * eligible with PDC at or above the threshold (0.80).
 */
import { computePdc, type PdcFill } from './pdc';

export type PqaPdcResult = {
  /** Index prescription start date: day of the first fill in the period (null without fills). */
  indexDay: number | null;
  treatmentDays: number;
  coveredDays: number;
  /** null when the period holds no fill. */
  pdc: number | null;
  distinctFillDays: number;
  eligible: boolean;
  /** null when not eligible. */
  adherent: boolean | null;
};

export const PQA_ADHERENT_THRESHOLD = 0.8;

export function computePqaPdc(options: {
  fills: readonly PdcFill[];
  periodStart: number;
  /** Day after the period's last day. */
  periodEnd: number;
  adherentThreshold?: number;
}): PqaPdcResult {
  const { periodStart, periodEnd } = options;
  const fillsInPeriod = options.fills.filter((fill) => fill.day >= periodStart && fill.day < periodEnd);
  const distinctFillDays = new Set(fillsInPeriod.map((fill) => fill.day)).size;
  if (fillsInPeriod.length === 0) {
    return { indexDay: null, treatmentDays: 0, coveredDays: 0, pdc: null, distinctFillDays, eligible: false, adherent: null };
  }
  const indexDay = fillsInPeriod.reduce((earliest, fill) => Math.min(earliest, fill.day), Infinity);
  const { coveredDays, periodDays, pdc } = computePdc({ fills: fillsInPeriod, periodStart: indexDay, periodEnd, carryIn: false });
  const eligible = distinctFillDays >= 2;
  const adherent = eligible ? pdc >= (options.adherentThreshold ?? PQA_ADHERENT_THRESHOLD) : null;
  return { indexDay, treatmentDays: periodDays, coveredDays, pdc, distinctFillDays, eligible, adherent };
}
