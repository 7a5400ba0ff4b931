import 'server-only';
import type { Database } from '@/db/client';
import type { Role } from '@/db/schema';
import { requirePermission } from '@/lib/server/authorization';
import type { RequestContext } from '@/lib/server/request-context';

/** Who starts an import: a signed-in user, or the operator at the command line (trusted, like migrations). */
export type ImportActor = { id: string; role: Role } | 'operator' | null;

/**
 * Only those with 'data:import' (administrators, clinicians) bring patient data in; a refusal is audited with
 * the request it came from. Routes call this before reading an upload's body.
 */
export async function authoriseImport<Actor extends ImportActor>(options: {
  database: Database;
  actor: Actor;
  action: string;
  request?: Partial<RequestContext>;
}): Promise<Exclude<Actor, null>> {
  if (options.actor === 'operator') return options.actor as Exclude<Actor, null>;
  return (await requirePermission({
    actor: options.actor as Exclude<ImportActor, 'operator'>,
    permission: 'data:import',
    message: 'Only administrators and clinicians can import data.',
    audit: { database: options.database, action: options.action, ...options.request },
  })) as Exclude<Actor, null>;
}
