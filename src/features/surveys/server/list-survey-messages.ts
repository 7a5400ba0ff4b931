import 'server-only';
import { desc, eq, inArray } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { surveyMessageChunks, surveyResponses } from '@/db/schema';
import { AppError } from '@/lib/errors';
import { requirePatientCareTeam } from '@/lib/server/authorization';
import type { RequestContext } from '@/lib/server/request-context';
import type { SessionUser } from '@/lib/server/session';
import type { SurveyMessageStatus } from '../schemas';
import { reminderAfterMs } from './send-survey-message';

/** The most recent surveys by message shown. */
const shown = 10;

/**
 * The patient's surveys sent by message, newest first (the Patient Profile's "Survey by message", decision 063):
 * each one's latest message and its state, and the one automatic reminder — when it went, or when it will if the
 * message stays unanswered. For an admin or a clinician of the patient's organisation, as who sends them; others
 * are refused and the refusal audited.
 */
export async function listSurveyMessages(options: {
  database: Database;
  actor: Pick<SessionUser, 'id' | 'role'>;
  patientId: string;
  request?: Partial<RequestContext>;
}): Promise<SurveyMessageStatus[]> {
  const { database, actor, patientId } = options;
  await requirePatientCareTeam({
    database,
    actor,
    patientId,
    action: 'survey.messages-read',
    refusal: new AppError('forbidden', 'patientId: you may not see this patient’s surveys by message.'),
    request: options.request,
  });

  const chunks = await database
    .select({
      responseId: surveyMessageChunks.surveyResponseId,
      kind: surveyMessageChunks.kind,
      channel: surveyMessageChunks.channel,
      status: surveyMessageChunks.status,
      statusReason: surveyMessageChunks.statusReason,
      questionIds: surveyMessageChunks.questionIds,
      createdAt: surveyMessageChunks.createdAt,
      updatedAt: surveyMessageChunks.updatedAt,
    })
    .from(surveyMessageChunks)
    .where(eq(surveyMessageChunks.patientId, patientId))
    .orderBy(desc(surveyMessageChunks.createdAt));
  const byResponse = new Map<string, typeof chunks>();
  for (const chunk of chunks) {
    if (!byResponse.has(chunk.responseId) && byResponse.size >= shown) continue;
    byResponse.set(chunk.responseId, [...(byResponse.get(chunk.responseId) ?? []), chunk]);
  }
  if (byResponse.size === 0) return [];
  const responses = await database
    .select({ id: surveyResponses.id, surveyKey: surveyResponses.surveyKey, completedAt: surveyResponses.completedAt })
    .from(surveyResponses)
    .where(inArray(surveyResponses.id, [...byResponse.keys()]));
  return [...byResponse.entries()].flatMap(([responseId, ofResponse]) => {
    const response = responses.find((candidate) => candidate.id === responseId);
    const last = ofResponse[0]!;
    if (response === undefined) return [];
    const reminded = ofResponse.find((chunk) => chunk.statusReason === 'reminded');
    return [
      {
        responseId,
        surveyKey: response.surveyKey,
        completedAt: response.completedAt?.toISOString() ?? null,
        last: {
          kind: last.kind,
          channel: last.channel === 'sms' ? 'sms' : 'whatsapp',
          status: last.status,
          statusReason: last.statusReason,
          questions: last.kind === 'invitation' ? 0 : last.questionIds.length,
          at: last.createdAt.toISOString(),
        },
        remindedAt: reminded?.updatedAt.toISOString() ?? null,
        // As the send job queues it: two days after the message, once per response (quiet hours may move it on).
        reminderDueAt:
          reminded === undefined && last.status === 'awaiting' && response.completedAt === null
            ? new Date(last.createdAt.getTime() + reminderAfterMs).toISOString()
            : null,
      } satisfies SurveyMessageStatus,
    ];
  });
}
