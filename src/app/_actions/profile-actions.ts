'use server';

import { headers } from 'next/headers';
import { getDatabase } from '@/db/client';
import type { ProfileDocument } from '@/features/identity/schemas';
import { grantRole } from '@/features/identity/server/grant-role';
import { setCompanyMembership } from '@/features/identity/server/set-company-membership';
import { updateProfile } from '@/features/identity/server/update-profile';
import { updateRole } from '@/features/identity/server/update-role';
import { updateSelectedDrugCompanies } from '@/features/identity/server/update-selected-drug-companies';
import { clientAddressHeader } from '@/lib/client-address';
import { type ActionResult, toActionResult } from '@/lib/server/action-result';
import { getSessionUser } from '@/lib/server/session';

// Server actions: each reads the session on the server and calls one use case, which authorises.

async function context() {
  const requestHeaders = await headers();
  return {
    database: getDatabase(),
    actor: await getSessionUser(requestHeaders),
    clientAddress: requestHeaders.get(clientAddressHeader) ?? undefined,
  };
}

export async function updateRoleAction(role: unknown): Promise<ActionResult<ProfileDocument>> {
  return toActionResult(async () => updateRole({ ...(await context()), role }));
}

export async function updateSelectedDrugCompaniesAction(companies: unknown): Promise<ActionResult<ProfileDocument>> {
  return toActionResult(async () => updateSelectedDrugCompanies({ ...(await context()), companies }));
}

export async function updateProfileAction(input: unknown): Promise<ActionResult<ProfileDocument>> {
  return toActionResult(async () => updateProfile({ ...(await context()), input }));
}

export async function grantRoleAction(targetUserId: unknown, role: unknown): Promise<ActionResult<{ userId: string; role: string }>> {
  return toActionResult(async () => grantRole({ ...(await context()), targetUserId: String(targetUserId), role }));
}

export async function setCompanyMembershipAction(
  targetUserId: unknown,
  companyId: unknown,
  member: unknown,
): Promise<ActionResult<null>> {
  return toActionResult(async () => {
    await setCompanyMembership({ ...(await context()), targetUserId: String(targetUserId), companyId: String(companyId), member: member === true });
    return null;
  });
}
