'use server';

import { z } from '@/lib/zod';
import { grantRole } from '@/features/identity/server/grant-role';
import { setCompanyMembership } from '@/features/identity/server/set-company-membership';
import { updateProfile } from '@/features/identity/server/update-profile';
import { updateRole } from '@/features/identity/server/update-role';
import { updateSelectedDrugCompanies } from '@/features/identity/server/update-selected-drug-companies';
import { authedAction } from '@/lib/server/authed-action';

// Server actions: each checks the Origin, reads the session on the server and calls one use case, which
// authorises. The profile use cases validate their own input (z.unknown() here), as tests and jobs call them too.

export const updateRoleAction = authedAction({
  schema: z.unknown(),
  run: (role, context) => updateRole({ ...context, role }),
});

export const updateSelectedDrugCompaniesAction = authedAction({
  schema: z.unknown(),
  run: (companies, context) => updateSelectedDrugCompanies({ ...context, companies }),
});

export const updateProfileAction = authedAction({
  schema: z.unknown(),
  run: (input, context) => updateProfile({ ...context, input }),
});

export const grantRoleAction = authedAction({
  schema: z.object({ targetUserId: z.string().min(1).max(200), role: z.unknown() }),
  label: 'The role grant',
  run: (input, context) => grantRole({ ...context, ...input }),
});

export const setCompanyMembershipAction = authedAction({
  schema: z.object({ targetUserId: z.string().min(1).max(200), companyId: z.string().min(1).max(200), member: z.boolean() }),
  label: 'The membership change',
  run: async (input, context) => {
    await setCompanyMembership({ ...context, ...input });
    return null;
  },
});
