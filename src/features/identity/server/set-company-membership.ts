import 'server-only';
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { authUsers, companyMemberships, drugCompanies, userProfiles } from '@/db/schema';
import { AppError } from '@/lib/errors';
import { recordAuditEvent } from '@/lib/server/audit';
import type { RequestContext } from '@/lib/server/request-context';
import type { SessionUser } from '@/lib/server/session';
import { requireAdmin } from './require-admin';

/** An admin adds a user to a company or removes them; removal also drops it from their selection. */
export async function setCompanyMembership(options: {
  database: Database;
  actor: SessionUser | null;
  targetUserId: string;
  companyId: string;
  member: boolean;
  request?: Partial<RequestContext>;
}): Promise<void> {
  const actor = await requireAdmin({ ...options, action: 'membership.change' });
  const [target] = await options.database.select({ id: authUsers.id }).from(authUsers).where(eq(authUsers.id, options.targetUserId));
  if (target === undefined) throw new AppError('not_found', 'There is no such user.');
  const [company] = await options.database
    .select({ id: drugCompanies.id })
    .from(drugCompanies)
    .where(eq(drugCompanies.id, options.companyId));
  if (company === undefined) throw new AppError('not_found', 'There is no such company.');
  if (options.member) {
    await options.database.insert(companyMemberships).values({ userId: target.id, companyId: company.id }).onConflictDoNothing();
  } else {
    await options.database
      .delete(companyMemberships)
      .where(and(eq(companyMemberships.userId, target.id), eq(companyMemberships.companyId, company.id)));
    await options.database
      .update(userProfiles)
      .set({ selectedDrugCompanies: sql`${userProfiles.selectedDrugCompanies} - ${company.id}`, updatedUnix: Date.now() })
      .where(eq(userProfiles.uid, target.id));
  }
  await recordAuditEvent(options.database, {
    action: options.member ? 'membership.add' : 'membership.remove',
    outcome: 'success',
    actorUserId: actor.id,
    targetUserId: target.id,
    ...options.request,
    details: { companyId: company.id },
  });
}
