import 'server-only';
import type { Database } from '@/db/client';
import type { Role } from '@/db/schema';
import { AppError } from '@/lib/errors';
import { recordAuditEvent } from '@/lib/server/audit';

/** Who starts an import: a signed-in user, or the operator at the command line (trusted, like migrations). */
export type ImportActor = { id: string; role: Role } | 'operator' | null;

const importerRoles: readonly Role[] = ['admin', 'clinician'];

/** Only administrators and clinicians bring patient data in; a refusal is audited. */
export async function authoriseImport(options: { database: Database; actor: ImportActor; action: string }): Promise<void> {
  const actor = options.actor;
  if (actor === null) throw new AppError('unauthenticated', 'Please sign in to import data.');
  if (actor === 'operator' || importerRoles.includes(actor.role)) return;
  await recordAuditEvent(options.database, {
    action: options.action,
    outcome: 'denied',
    actorUserId: actor.id,
    details: { role: actor.role },
  });
  throw new AppError('forbidden', 'Only administrators and clinicians can import data.');
}
