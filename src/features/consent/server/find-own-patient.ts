import 'server-only';
import { eq } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { patients } from '@/db/schema';

/** The patient record the signed-in account is linked to (patients.user_id), or null. */
export async function findOwnPatientId(database: Database, userId: string): Promise<string | null> {
  const [own] = await database.select({ id: patients.id }).from(patients).where(eq(patients.userId, userId));
  return own?.id ?? null;
}
