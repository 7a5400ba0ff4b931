import type { TrialArm, TrialParticipation } from '../contracts';
import { formatDate } from '@/lib/format';
import { participantStatusLabels } from './trial-format';

/** The signed-in patient's own place in the trial: nothing about anyone else. */
export function YourParticipation({
  participation,
  arms,
}: {
  participation: TrialParticipation;
  arms: Record<TrialArm, { label: string; description: string }>;
}) {
  return (
    <section aria-labelledby="your-participation-heading" className="flex max-w-3xl flex-col gap-2" data-testid="your-participation">
      <h2 id="your-participation-heading" className="text-xl font-semibold">
        Your participation
      </h2>
      {participation.enrolled ? (
        <dl className="grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-[10rem_1fr]">
          <dt className="font-medium">Arm</dt>
          <dd>
            {arms[participation.arm].label} — {arms[participation.arm].description}
          </dd>
          <dt className="font-medium">Enrolled on</dt>
          <dd>{formatDate(participation.enrolledOn)}</dd>
          <dt className="font-medium">Follow-up ends on</dt>
          <dd>{formatDate(participation.followUpEndsOn)}</dd>
          <dt className="font-medium">Status</dt>
          <dd>{participantStatusLabels[participation.status]}</dd>
        </dl>
      ) : (
        <p className="text-sm">You are not taking part in this trial.</p>
      )}
    </section>
  );
}
