import 'server-only';
import type { SeedDemoDatasetResult } from './seed-demo-dataset';

const number = new Intl.NumberFormat('en-GB');

/** One line for the start-up log and the seed command. */
export function describeDemoDataset(result: SeedDemoDatasetResult): string {
  if (!result.seeded) return `Demo dataset: already loaded (${number.format(result.syntheticPatients)} synthetic patients); nothing changed.`;
  const { inserted, arms } = result;
  return (
    `Demo dataset (synthetic) loaded in ${(result.milliseconds / 1000).toFixed(1)} s: ${number.format(inserted.patients)} patients, ` +
    `${number.format(inserted.dispensings)} dispensings, ${number.format(inserted.doseEvents)} dose events, ${number.format(inserted.messages)} messages; ` +
    `trial cohort A: ${number.format(inserted.trialEnrolments)} enrolled (${arms.control} control, ${arms.intervention} intervention).`
  );
}
