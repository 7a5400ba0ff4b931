import { formatCount } from '@/lib/format';
import { labPeriodText, type LabSummary } from '../schemas';
import { describeSettings } from './describe-settings';

/** The population and period of every figure on a lab page, and that they are simulated. */
export function LabCohortNote({ summary, settingsLabel }: { summary: LabSummary; settingsLabel?: string }) {
  return (
    <p className="text-sm" data-testid="lab-cohort">
      <span className="mr-2 rounded-full border border-separator bg-surface px-2 py-0.5 font-medium" data-testid="synthetic-label">
        synthetic · simulated
      </span>
      {formatCount(summary.patients)} simulated patients over {summary.weeks} weeks ({labPeriodText(summary)}), seed {summary.seed}, the
      same cohort under each policy; {settingsLabel ?? 'the personalised policy’s'} settings: {describeSettings(summary.settings)}.
    </p>
  );
}
