import { headers } from 'next/headers';
import { getDatabase } from '@/db/client';
import { PolicyComparisonPanel } from '@/features/policy-comparison/components/policy-comparison-panel';
import {
  comparisonDefaults,
  comparisonLimits,
  type ComparisonRun,
  type ComparisonSettings,
  comparisonSettingsSchema,
} from '@/features/policy-comparison/schemas';
import { comparePolicies } from '@/features/policy-comparison/server/compare-policies';
import { findLatestComparisonRun } from '@/features/policy-comparison/server/find-latest-comparison-run';
import { getComparisonRun } from '@/features/policy-comparison/server/get-comparison-run';
import { cachedSimulations } from '@/features/policy-comparison/server/simulation-cache';
import { isAppError } from '@/lib/errors';
import { fieldErrorsOf } from '@/lib/parse-input';
import { getProductName } from '@/lib/product';
import { getCurrentUser } from '@/lib/server/current-user';
import { requestContextOf } from '@/lib/server/request-context';
import type { SessionUser } from '@/lib/server/session';
import { runComparisonAction } from './comparison-actions';

type SearchParams = Record<string, string | string[] | undefined>;
type Props = { searchParams: Promise<SearchParams> };

const settingsKeys = ['patients', 'seed', 'smsPrice', 'whatsappPrice'] as const;
const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** `?run=<id>`: a stored run (?job= was its name before), read for this viewer; a problem is said in words. */
async function readRun(actor: SessionUser, runId: string): Promise<{ run: ComparisonRun | null; problem: string | null }> {
  try {
    const run = await getComparisonRun({
      database: getDatabase(),
      actor,
      id: runId,
      request: requestContextOf(await headers()),
    });
    return { run, problem: null };
  } catch (error) {
    if (isAppError(error) && error.code === 'validation')
      return { run: null, problem: `This address does not name a comparison run: ${error.fieldErrors?.run ?? error.message}` };
    if (isAppError(error) && error.code === 'not_found') return { run: null, problem: error.message };
    throw error;
  }
}

/**
 * `?patients=…&seed=…&smsPrice=…&whatsappPrice=…`: the address of a run small enough to compute while the page
 * renders (the simulation is deterministic, so the same address gives the same figures). Larger cohorts are
 * not computed here: they are background runs with an id of their own.
 */
function readSettings(params: SearchParams): {
  settings: ComparisonSettings | null;
  fieldErrors: Record<string, string>;
  computable: boolean;
} {
  if (!settingsKeys.some((key) => params[key] !== undefined)) return { settings: null, fieldErrors: {}, computable: false };
  const parsed = comparisonSettingsSchema.safeParse(Object.fromEntries(settingsKeys.map((key) => [key, first(params[key]) ?? ''])));
  if (!parsed.success) return { settings: null, fieldErrors: fieldErrorsOf(parsed.error), computable: false };
  const computable = parsed.data.patients <= comparisonLimits.maximumPatientsInRequest || cachedSimulations(parsed.data) !== undefined;
  return { settings: parsed.data, fieldErrors: {}, computable };
}

/** `/{product}-comparison` (the product name in lower case), rendered by the [page] route so it follows PRODUCT_NAME. */
export async function ProductComparisonPage({ searchParams }: Props) {
  const productName = getProductName();
  const params = await searchParams;
  const runId = first(params.run) ?? first(params.job);
  // The member layout sends visitors to sign in; while it does, this page reads no runs.
  const actor = await getCurrentUser();
  const { run, problem: runProblem } = runId === undefined || actor === null ? { run: null, problem: null } : await readRun(actor, runId);
  // Without a run in the address, point to the viewer's latest one, so a run left earlier is one link away.
  const latestRun = runId === undefined && actor !== null ? await findLatestComparisonRun({ database: getDatabase(), actor }) : null;
  const fromAddress = readSettings(params);
  // A finished run shows its stored result; otherwise the address's settings, else the default cohort (cached after the first visit).
  const comparison =
    run?.comparison ??
    comparePolicies({ settings: fromAddress.computable && fromAddress.settings ? fromAddress.settings : comparisonDefaults });
  const formSettings = run?.settings ?? fromAddress.settings ?? comparison.settings;
  return (
    <article className="flex flex-col gap-6">
      <h1 className="text-3xl font-semibold tracking-tight">{productName} Comparison</h1>
      <p className="max-w-3xl text-muted">
        The simulator runs one synthetic cohort, with the same patients and the same seed, under each messaging policy: no messages, the
        standard daily reminder, a weekly check-in, and the personalised learning policy. Differences between the rows are the policies’
        doing. Change the cohort size, the seed or the message prices and run it again.
      </p>
      <PolicyComparisonPanel
        productName={productName}
        comparison={comparison}
        formSettings={formSettings}
        settingsErrors={fromAddress.fieldErrors}
        notComputed={fromAddress.settings !== null && !fromAddress.computable}
        run={run}
        runProblem={runProblem}
        latestRun={latestRun}
        runComparison={runComparisonAction}
      />
    </article>
  );
}
