import 'server-only';
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { auditLog, doseEvents } from '@/db/schema';
import { AppError } from '@/lib/errors';
import { parseInput } from '@/lib/parse-input';
import { recordAuditEvent } from '@/lib/server/audit';
import { requirePermission } from '@/lib/server/authorization';
import type { RequestContext } from '@/lib/server/request-context';
import type { SessionUser } from '@/lib/server/session';
import { doseAnswerUndoMinutes } from '../dose-answer-rules';
import { undoDoseAnswerInputSchema } from '../schemas';
import { findOwnPatient } from './find-own-patient-day';

/**
 * Takes back a dose answer the patient gave in the app within the last few minutes (a mis-tap): the dose
 * event goes, and the audit log keeps both the answer and its undoing. Later, or for an answer that came
 * another way (a reply, a device), the record stands.
 */
export async function undoDoseAnswer(options: {
  database: Database;
  actor: SessionUser;
  input: unknown;
  now: Date;
  request?: RequestContext;
}): Promise<{ undone: true }> {
  const { database, now } = options;
  const actor = await requirePermission({
    actor: options.actor,
    permission: 'doses:answer-own',
    message: 'Only patients answer for their own doses.',
    audit: { database, action: 'dose.answer-undo', ...options.request },
  });
  const { doseEventId } = parseInput(undoDoseAnswerInputSchema, options.input, { label: 'The answer to take back' });
  const patient = await findOwnPatient(database, actor.id);
  const tooLate = new AppError(
    'conflict',
    `This answer can no longer be taken back: answers given in the app can be undone for ${doseAnswerUndoMinutes} minutes.`,
  );
  if (patient === null) throw new AppError('not_found', 'That answer was not found.');
  return database.transaction(async (transaction) => {
    // The patient's own audited answer, with whether it is still inside the undo window.
    const [answer] = await transaction
      .select({
        recent: sql<boolean>`(${auditLog.details} ->> 'answeredAt')::timestamptz >= ${new Date(now.getTime() - doseAnswerUndoMinutes * 60_000).toISOString()}::timestamptz`,
      })
      .from(auditLog)
      .where(
        and(
          eq(auditLog.action, 'dose.answer'),
          eq(auditLog.outcome, 'success'),
          eq(auditLog.actorUserId, actor.id),
          sql`${auditLog.details} ->> 'doseEventId' = ${doseEventId}`,
        ),
      )
      .limit(1);
    if (answer === undefined) throw new AppError('not_found', 'That answer was not found.');
    if (!answer.recent) throw tooLate;
    const deleted = await transaction
      .delete(doseEvents)
      .where(and(eq(doseEvents.id, doseEventId), eq(doseEvents.patientId, patient.id), eq(doseEvents.source, 'app')))
      .returning({ id: doseEvents.id });
    if (deleted.length === 0) throw new AppError('not_found', 'That answer was not found (it may have been taken back already).');
    await recordAuditEvent(transaction, {
      action: 'dose.answer-undo',
      outcome: 'success',
      actorUserId: actor.id,
      targetUserId: actor.id,
      ...options.request,
      details: { doseEventId },
    });
    return { undone: true as const };
  });
}
