'use server';

import { headers } from 'next/headers';
import { getDatabase } from '@/db/client';
import type { ComparisonOutcome } from '@/features/policy-comparison/schemas';
import { startPolicyComparison } from '@/features/policy-comparison/server/start-policy-comparison';
import { type ActionResult, toActionResult } from '@/lib/server/action-result';
import { getSessionUser } from '@/lib/server/session';

export async function runComparisonAction(input: unknown): Promise<ActionResult<ComparisonOutcome>> {
  return toActionResult(async () => startPolicyComparison({ database: getDatabase(), actor: await getSessionUser(await headers()), input }));
}
