import 'server-only';
/**
 * Records that a clinician contacted a patient from the risk worklist: a `risk_contacts` row and an audit
 * event, in one transaction. Only for a patient the clinician's worklist may show.
 */
import { and, eq } from 'drizzle-orm';
import { z } from '@/lib/zod';
import type { Database } from '@/db/client';
import { cohortConditions, findCohortScope } from '@/db/queries/cohort-scope';
import { patients, riskContacts } from '@/db/schema';
import { AppError } from '@/lib/errors';
import { parseInput } from '@/lib/parse-input';
import { recordAuditEvent } from '@/lib/server/audit';
import { requirePermission } from '@/lib/server/authorization';
import type { RequestContext } from '@/lib/server/request-context';
import type { SessionUser } from '@/lib/server/session';

// guid, not uuid: seeded ids are UUID-shaped without RFC 4122's version and variant bits.
const inputSchema = z.object({ patientId: z.guid({ error: 'patientId must be a patient id' }) });

export async function recordRiskContact(options: {
  database: Database;
  actor: SessionUser | null;
  input: unknown;
  request?: RequestContext;
}): Promise<{ patientId: string; contactedAt: string }> {
  const { database } = options;
  const actor = await requirePermission({
    actor: options.actor,
    permission: 'patients:list',
    message: 'Only care teams can record a contact from the risk worklist.',
    audit: { database, action: 'risk-worklist.contacted', ...options.request },
  });
  const { patientId } = parseInput(inputSchema, options.input, { label: 'The contact' });
  const conditions = cohortConditions(database, await findCohortScope({ database, actor }));
  const [patient] =
    conditions === null
      ? []
      : await database
          .select({ id: patients.id })
          .from(patients)
          .where(and(eq(patients.id, patientId), conditions.patients));
  if (patient === undefined) throw new AppError('not_found', 'That patient is not on your worklist.');
  return database.transaction(async (transaction) => {
    const [row] = await transaction
      .insert(riskContacts)
      .values({ patientId, contactedBy: actor.id })
      .returning({ contactedAt: riskContacts.contactedAt });
    await recordAuditEvent(transaction, {
      action: 'risk-worklist.contacted',
      outcome: 'success',
      actorUserId: actor.id,
      clientAddress: options.request?.clientAddress ?? null,
      requestId: options.request?.requestId ?? null,
      details: { patientId },
    });
    return { patientId, contactedAt: row!.contactedAt.toISOString() };
  });
}
