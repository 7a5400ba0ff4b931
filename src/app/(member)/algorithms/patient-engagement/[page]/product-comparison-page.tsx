import { PolicyComparisonPanel } from '@/features/policy-comparison/components/policy-comparison-panel';
import { comparisonDefaults } from '@/features/policy-comparison/schemas';
import { comparePolicies } from '@/features/policy-comparison/server/compare-policies';
import { getProductName } from '@/lib/product';
import { runComparisonAction } from './comparison-actions';

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const jobIdPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `/{product}-comparison` (the product name in lower case), rendered by the [page] route so it follows PRODUCT_NAME. */
export async function ProductComparisonPage({ searchParams }: Props) {
  const productName = getProductName();
  // ?job= names a background run started from this page; the panel follows it (the job API checks it is yours).
  const { job } = await searchParams;
  const resumeJobId = typeof job === 'string' && jobIdPattern.test(job) ? job : null;
  // The first view runs the default cohort (cached after the first visit); the form re-runs it.
  const initial = comparePolicies({ settings: comparisonDefaults });
  return (
    <article className="flex flex-col gap-6">
      <h1 className="text-3xl font-semibold tracking-tight">{productName} Comparison</h1>
      <p className="max-w-3xl text-muted">
        The simulator runs one synthetic cohort, with the same patients and the same seed, under each messaging policy available today: no
        messages, the standard daily reminder, and a weekly check-in. Differences between the rows are the policies’ doing. Change the
        cohort size, the seed or the message prices and run it again.
      </p>
      <PolicyComparisonPanel productName={productName} initial={initial} runComparison={runComparisonAction} resumeJobId={resumeJobId} />
    </article>
  );
}
