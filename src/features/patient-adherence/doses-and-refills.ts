import type { DoseAdherence } from '@/engine/adherence/dose-adherence';

/** Confirmed-dose share and refill PDC further apart than this are called out as disagreeing. */
const DISAGREEMENT = 0.2;

export type DosesAndRefills = {
  confirmedDoses: number;
  reportedDoses: number;
  confirmedShare: number | null;
  refillPdc: number | null;
  disagree: boolean;
  /** e.g. "Confirmed 17 of 19 reported doses (89%); refills cover 37% of days." plus, when they disagree, why that may be. */
  sentence: string;
};

/**
 * Dose confirmations (what the patient or a device reported) and refills (what the pharmacy dispensed) measure
 * adherence differently; side by side, with a sentence when they tell different stories (issue 11 item 5).
 */
export function compareDosesAndRefills(doses: DoseAdherence, refillPdc: number | null): DosesAndRefills {
  const percent = (share: number) => `${Math.round(share * 100)}%`;
  const base = {
    confirmedDoses: doses.confirmedDoses,
    reportedDoses: doses.scheduledDoses,
    confirmedShare: doses.confirmedShare,
    refillPdc,
  };
  const doseWords =
    doses.confirmedShare === null
      ? 'No doses were reported'
      : `Confirmed ${doses.confirmedDoses} of ${doses.scheduledDoses} reported doses (${percent(doses.confirmedShare)})`;
  const refillWords = refillPdc === null ? 'no refills are recorded' : `refills cover ${percent(refillPdc)} of days`;
  const facts = `${doseWords}; ${refillWords}.`;
  if (doses.confirmedShare === null || refillPdc === null) return { ...base, disagree: false, sentence: facts };
  const gap = doses.confirmedShare - refillPdc;
  if (Math.abs(gap) < DISAGREEMENT) return { ...base, disagree: false, sentence: `${facts} The two agree.` };
  const why =
    gap > 0
      ? 'More doses were confirmed than the refills on record could supply: a fill may be missing from the pharmacy data, or doses confirmed without being taken.'
      : 'The refills cover more days than the doses confirmed: doses may be taken without being confirmed, or medicine collected and not taken.';
  return { ...base, disagree: true, sentence: `${facts} They disagree. ${why}` };
}
