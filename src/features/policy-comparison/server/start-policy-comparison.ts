/**
 * What the page's "Run comparison" does: checks the settings (errors name the field), then answers with
 * the comparison when it is small enough to compute within the request (or was computed recently), and
 * otherwise queues a background job whose progress the page follows.
 */
import 'server-only';
import type { Database } from '@/db/client';
import { AppError } from '@/lib/errors';
import { parseInput } from '@/lib/parse-input';
import { enqueueJob } from '@/lib/server/jobs';
import type { SessionUser } from '@/lib/server/session';
import { type ComparisonOutcome, comparisonLimits, type ComparisonSettings, comparisonSettingsSchema } from '../schemas';
import { comparePolicies } from './compare-policies';
import { cachedSimulations } from './simulation-cache';

export const comparisonJobKind = 'policy-comparison';

/** Names the settings in a validation message ("The comparison settings are not valid: …" reads badly with 'is'). */
const comparisonSettingsLabel = 'The comparison request';

export function parseComparisonSettings(input: unknown): ComparisonSettings {
  return parseInput(comparisonSettingsSchema, input ?? {}, { label: comparisonSettingsLabel });
}

export async function startPolicyComparison(options: {
  database: Database;
  actor: SessionUser | null;
  input: unknown;
}): Promise<ComparisonOutcome> {
  if (options.actor === null) throw new AppError('unauthenticated', 'Sign in to run a comparison.');
  const settings = parseComparisonSettings(options.input);
  if (settings.patients <= comparisonLimits.maximumPatientsInRequest || cachedSimulations(settings) !== undefined) {
    return { kind: 'result', comparison: comparePolicies({ settings }) };
  }
  const { id } = await enqueueJob({ database: options.database, kind: comparisonJobKind, payload: settings, createdBy: options.actor.id });
  return { kind: 'job', jobId: id };
}
