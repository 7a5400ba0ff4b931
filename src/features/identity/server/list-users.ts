import 'server-only';
import { asc, eq } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { authUsers, companyMemberships, drugCompanies, userProfiles } from '@/db/schema';
import { recordAuditEvent } from '@/lib/server/audit';
import type { RequestContext } from '@/lib/server/request-context';
import type { SessionUser } from '@/lib/server/session';
import type { UserSummary } from '../schemas';
import { requireAdmin } from './require-admin';

/**
 * Every account with its role and companies, for the admin page; and the companies that can be granted.
 * The listing shows personal data (emails, names), so each read is audited like a refusal is.
 */
export async function listUsers(options: { database: Database; actor: SessionUser | null; request?: Partial<RequestContext> }): Promise<{
  users: UserSummary[];
  companies: { id: string; name: string }[];
}> {
  const actor = await requireAdmin({ ...options, action: 'users.list' });
  const rows = await options.database
    .select({ id: authUsers.id, email: authUsers.email, name: authUsers.name, role: userProfiles.role, createdAt: authUsers.createdAt })
    .from(authUsers)
    .leftJoin(userProfiles, eq(userProfiles.uid, authUsers.id))
    .orderBy(asc(authUsers.email));
  const memberships = await options.database
    .select({ userId: companyMemberships.userId, id: drugCompanies.id, name: drugCompanies.name })
    .from(companyMemberships)
    .innerJoin(drugCompanies, eq(drugCompanies.id, companyMemberships.companyId));
  const companies = await options.database
    .select({ id: drugCompanies.id, name: drugCompanies.name })
    .from(drugCompanies)
    .orderBy(asc(drugCompanies.name));
  await recordAuditEvent(options.database, {
    action: 'users.list',
    outcome: 'success',
    actorUserId: actor.id,
    ...options.request,
    details: { users: rows.length },
  });
  return {
    users: rows.map((row) => ({
      id: row.id,
      email: row.email,
      name: row.name,
      role: row.role ?? 'patient',
      companies: memberships.filter((membership) => membership.userId === row.id).map(({ id, name }) => ({ id, name })),
      createdAt: row.createdAt.toISOString(),
    })),
    companies,
  };
}
