import 'server-only';
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { instanceSettings } from '@/db/schema';

/**
 * The installation's auth secret: AUTH_SECRET when set, otherwise one generated on first start and kept in
 * the database, so every instance sharing the database signs and verifies sessions alike.
 */
export async function loadInstanceSecret(database: Database, configured: string | undefined): Promise<string> {
  if (configured !== undefined) return configured;
  await database
    .insert(instanceSettings)
    .values({ key: 'auth-secret', value: randomBytes(48).toString('base64url') })
    .onConflictDoNothing();
  const [row] = await database
    .select({ value: instanceSettings.value })
    .from(instanceSettings)
    .where(eq(instanceSettings.key, 'auth-secret'));
  if (row === undefined) throw new Error('The auth secret could not be stored.');
  return row.value;
}
