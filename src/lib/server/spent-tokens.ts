import 'server-only';
import { createHash } from 'node:crypto';
import { lt } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { spentTokens } from '@/db/schema';

/** Marks a single-use token as spent; false when it had been spent already (a replay). Stores only a hash. */
export async function spendToken(options: { database: Database; scope: string; token: string; validForSeconds: number }): Promise<boolean> {
  const now = Date.now();
  await options.database.delete(spentTokens).where(lt(spentTokens.expiresAt, new Date(now)));
  const key = `${options.scope}:${createHash('sha256').update(options.token).digest('base64url')}`;
  const inserted = await options.database
    .insert(spentTokens)
    .values({ key, expiresAt: new Date(now + options.validForSeconds * 1000) })
    .onConflictDoNothing()
    .returning({ key: spentTokens.key });
  return inserted.length === 1;
}
