import type { SurveyResult } from '@/engine/surveys';
import { personaLabel } from '@/lib/domain/personas';
import { ipaqMeaning } from './labels';

const numberFormat = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 0 });
const percent = new Intl.NumberFormat('en-GB', { style: 'percent', maximumFractionDigits: 0 });

/** A patient's own result: the instrument scores in words, then each answer and what it means. */
export function SurveyResultView({
  result,
  order,
  completedAt,
}: {
  result: SurveyResult;
  order: 'fixed' | 'adaptive';
  completedAt: string;
}) {
  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm text-muted">
        Your answers of{' '}
        {new Date(completedAt).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' })}.
      </p>
      {result.ipaq === null ? null : result.ipaq.valid ? (
        <p>
          <strong>Physical activity: {result.ipaq.category}</strong> — {numberFormat.format(result.ipaq.metMinutes.total)} MET-minutes a
          week (IPAQ short form, last 7 days). {ipaqMeaning[result.ipaq.category]}
        </p>
      ) : (
        <p>
          <strong>Physical activity:</strong> not scored — {result.ipaq.reason} (the IPAQ rules leave such answers out).
        </p>
      )}
      {result.auditC === null ? null : (
        <p>
          <strong>Alcohol (AUDIT-C): {result.auditC.score} of 12</strong> —{' '}
          {result.auditC.positive
            ? `at or above the cut-off of ${result.auditC.cutOff} for drinking that may harm your health; worth talking over with your care team.`
            : `below the cut-off of ${result.auditC.cutOff} for drinking that may harm your health.`}
        </p>
      )}
      {order === 'adaptive' ? (
        <p>
          <strong>What your answers suggest:</strong> most like a “{personaLabel(result.topPersona.persona)}” (
          {percent.format(result.topPersona.probability)} likely from these answers). Your care team’s messages can be shaped around this.
        </p>
      ) : null}
      <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        {result.answers.map((answer) => (
          <div key={answer.questionId} className="contents">
            <dt className="text-sm text-muted">{answer.question}</dt>
            <dd className="text-sm">
              <span className="font-medium">{answer.answer}</span>
              {answer.meaning === null ? null : <span> — {answer.meaning}</span>}
              {answer.fromRecord === true ? <span className="text-muted"> (from your record, not asked)</span> : null}
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
