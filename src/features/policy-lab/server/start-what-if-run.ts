/**
 * The adherence-optimization page's what-if: the form's settings (as typed; every field at fault is named)
 * on the default cohort and seed, so its figures compare with the default run's like for like.
 */
import 'server-only';
import type { Database } from '@/db/client';
import { parseInput } from '@/lib/parse-input';
import { requireActor } from '@/lib/server/authorization';
import type { SessionUser } from '@/lib/server/session';
import { labDefaults, labFormSchema, type LabRunProgress } from '../schemas';
import { omitSummary } from './to-lab-run';
import { startLabRun } from './start-lab-run';

export async function startWhatIfRun(options: {
  database: Database;
  actor: SessionUser | null;
  input: unknown;
  now?: Date;
}): Promise<LabRunProgress> {
  const actor = requireActor(options.actor);
  const settings = parseInput(labFormSchema, options.input, { label: 'The what-if settings' });
  return omitSummary(
    await startLabRun({
      database: options.database,
      actor,
      input: { ...labDefaults, settings },
      now: options.now,
    }),
  );
}
