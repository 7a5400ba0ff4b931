import 'server-only';
import { doseEvents } from '@/db/schema';
import type { Database } from '@/db/client';
import { AppError } from '@/lib/errors';
import { parseInput } from '@/lib/parse-input';
import { recordAuditEvent } from '@/lib/server/audit';
import { requirePermission } from '@/lib/server/authorization';
import type { RequestContext } from '@/lib/server/request-context';
import type { SessionUser } from '@/lib/server/session';
import { doseAnswerUndoMinutes, doseSourceWords } from '../dose-answer-rules';
import { doseAnswerInputSchema } from '../schemas';
import { findOwnPatient, findTodaysDoseSlots } from './find-own-patient-day';

/**
 * A patient answers "taken" or "skipped" for one of today's doses in the app: a dose event observed by 'app',
 * at the slot's time, that the calendar, the adherence figures and the policy's reward read like any other.
 * Only today's own doses, each answered once (whatever answered it first); audited, which also opens the
 * few minutes in which the patient may take the answer back.
 */
export async function recordDoseAnswer(options: {
  database: Database;
  actor: SessionUser;
  input: unknown;
  now: Date;
  request?: RequestContext;
}): Promise<{ doseEventId: string; undoUntil: string }> {
  const { database, now } = options;
  const actor = await requirePermission({
    actor: options.actor,
    permission: 'doses:answer-own',
    message: 'Only patients answer for their own doses.',
    audit: { database, action: 'dose.answer', ...options.request },
  });
  const input = parseInput(doseAnswerInputSchema, options.input, { label: 'The dose answer' });
  const patient = await findOwnPatient(database, actor.id);
  if (patient === null)
    throw new AppError('not_found', 'Your account is not linked to a patient record yet, so there are no doses to answer.');

  const { slots } = await findTodaysDoseSlots({ database, patient, now });
  const slot = slots.find(
    (candidate) => candidate.productId === input.productId && candidate.scheduledAt.getTime() === Date.parse(input.scheduledAt),
  );
  if (slot === undefined) {
    throw new AppError('validation', 'That dose is not one of your doses today. Reload the page to see today’s doses.', {
      fieldErrors: { scheduledAt: 'not one of today’s doses' },
    });
  }
  const alreadyAnswered = (source: string, status: string) =>
    new AppError('conflict', `This dose already has an answer: ${status} ${doseSourceWords[source] ?? `(${source})`}.`);
  if (slot.recorded !== null) throw alreadyAnswered(slot.recorded.source, slot.recorded.status);

  const [inserted] = await database
    .insert(doseEvents)
    .values({
      patientId: patient.id,
      productId: slot.productId,
      scheduledAt: slot.scheduledAt,
      confirmedAt: input.answer === 'taken' ? now : null,
      status: input.answer,
      source: 'app',
      sourceRecordId: `${patient.id}:${slot.productId}:${slot.scheduledAt.toISOString()}`,
    })
    .onConflictDoNothing()
    .returning({ id: doseEvents.id });
  // A second tap (another tab) that lost the race.
  if (inserted === undefined) throw alreadyAnswered('app', input.answer);
  await recordAuditEvent(database, {
    action: 'dose.answer',
    outcome: 'success',
    actorUserId: actor.id,
    targetUserId: actor.id,
    ...options.request,
    // The answer's time on the use case's clock: the undo window counts from it.
    details: { doseEventId: inserted.id, status: input.answer, answeredAt: now.toISOString() },
  });
  return { doseEventId: inserted.id, undoUntil: new Date(now.getTime() + doseAnswerUndoMinutes * 60_000).toISOString() };
}
