import 'server-only';
import { desc, eq } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { surveyDefinitions } from '@/db/schema';
import { likelihoodProblems, recordFieldProblems, type SurveyDefinition } from '@/engine/surveys';
import { AppError } from '@/lib/errors';
import { parseInput } from '@/lib/parse-input';
import { recordAuditEvent } from '@/lib/server/audit';
import { requirePermission } from '@/lib/server/authorization';
import type { RequestContext } from '@/lib/server/request-context';
import type { SessionUser } from '@/lib/server/session';
import { saveSurveyDefinitionInputSchema, surveyDefinitionSchema } from '../schemas';
import { findCurrentDefinition } from './survey-store';

/**
 * An admin's edit of a survey: checked (shape, unique question and answer ids, likelihoods summing to 1 per
 * persona, number ranges, dependencies), then saved as the next version; earlier versions and the responses
 * given to them are kept unchanged. Audited.
 */
export async function saveSurveyDefinition(options: {
  database: Database;
  actor: Pick<SessionUser, 'id' | 'role'>;
  input: unknown;
  now: Date;
  request?: Partial<RequestContext>;
}): Promise<{ surveyKey: string; version: number }> {
  const { database, now } = options;
  const actor = await requirePermission({
    actor: options.actor,
    permission: 'surveys:edit',
    message: 'Only admins edit survey definitions.',
    audit: { database, action: 'survey-definition.save', ...options.request },
  });
  const input = parseInput(saveSurveyDefinitionInputSchema, options.input, { label: 'The survey definition' });
  let json: unknown;
  try {
    json = JSON.parse(input.definitionJson);
  } catch {
    throw new AppError('validation', 'The definition is not valid JSON.', { fieldErrors: { definitionJson: 'not valid JSON' } });
  }
  const definition = parseInput(surveyDefinitionSchema, json, { label: 'The survey definition' }) as SurveyDefinition;
  if (definition.key !== input.surveyKey) {
    throw new AppError('validation', `The definition's key must be ${input.surveyKey}.`, {
      fieldErrors: { key: `must be ${input.surveyKey}` },
    });
  }
  const problems = [...likelihoodProblems(definition), ...structureProblems(definition), ...recordFieldProblems(definition)];
  if (problems.length > 0) {
    throw new AppError('validation', `The survey definition is not valid: ${problems.join('; ')}`, {
      fieldErrors: Object.fromEntries(problems.map((problem) => [problem.split(':')[0]!, problem.split(': ').slice(1).join(': ')])),
    });
  }

  await findCurrentDefinition(database, input.surveyKey);
  // The next version number; the unique (key, version) index turns a concurrent save into a conflict.
  const [latest] = await database
    .select({ version: surveyDefinitions.version })
    .from(surveyDefinitions)
    .where(eq(surveyDefinitions.surveyKey, input.surveyKey))
    .orderBy(desc(surveyDefinitions.version))
    .limit(1);
  const version = (latest?.version ?? 0) + 1;
  const inserted = await database
    .insert(surveyDefinitions)
    .values({ surveyKey: input.surveyKey, version, definition, changeNote: input.changeNote, createdBy: actor.id, createdAt: now })
    .onConflictDoNothing()
    .returning({ id: surveyDefinitions.id });
  if (inserted.length === 0)
    throw new AppError('conflict', 'Someone saved this survey at the same time: reload and edit the newest version.');
  await recordAuditEvent(database, {
    action: 'survey-definition.save',
    outcome: 'success',
    actorUserId: actor.id,
    ...options.request,
    details: { surveyKey: input.surveyKey, version, questions: definition.questions.length },
  });
  return { surveyKey: input.surveyKey, version };
}

function structureProblems(definition: SurveyDefinition): string[] {
  const problems: string[] = [];
  const ids = new Set<string>();
  for (const question of definition.questions) {
    if (ids.has(question.id)) problems.push(`questions.${question.id}: the id is used twice`);
    ids.add(question.id);
    if (question.kind === 'choice') {
      const values = new Set(question.options.map((option) => option.value));
      if (values.size !== question.options.length) problems.push(`questions.${question.id}.options: two answers share a value`);
    } else {
      if (question.min > question.max) problems.push(`questions.${question.id}.min: greater than max`);
      if (
        question.askedWhenPositive !== undefined &&
        !definition.questions.some((other) => other.id === question.askedWhenPositive && other.kind === 'choice')
      ) {
        problems.push(`questions.${question.id}.askedWhenPositive: no choice question ${question.askedWhenPositive}`);
      }
    }
  }
  return problems;
}
