import 'server-only';
import { formatCount, formatDecimal } from '@/lib/format';
import { type SeedDemoDatasetResult, trialCohortA } from './seed-demo-dataset';

/** One line for the start-up log and the seed command. */
export function describeDemoDataset(result: SeedDemoDatasetResult): string {
  if (!result.seeded) return `Demo dataset: already loaded (${formatCount(result.syntheticPatients)} synthetic patients); nothing changed.`;
  const { inserted, arms } = result;
  return (
    `Demo dataset (synthetic) loaded in ${formatDecimal(result.milliseconds / 1000, 1)} s: ${formatCount(inserted.patients)} patients, ` +
    `${formatCount(inserted.dispensings)} dispensings, ${formatCount(inserted.doseEvents)} dose events, ${formatCount(inserted.messages)} messages; ` +
    `trial cohort A: ${formatCount(inserted.trialScreenings)} screened, ${formatCount(inserted.trialEnrolments)} enrolled (${arms.control} control, ${arms.intervention} intervention) and followed for ${trialCohortA.weeks} weeks.`
  );
}
