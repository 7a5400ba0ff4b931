import 'server-only';
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { authUsers, patients } from '@/db/schema';

/** One such patient with their number and language, by id; null when not a patient with a verified number. */
export async function findPhonePatient(options: {
  database: Database;
  patientId: string;
}): Promise<{ id: string; pseudonym: string; phoneNumber: string; language: string | null } | null> {
  const [row] = await options.database
    .select({ id: patients.id, pseudonym: patients.pseudonym, phoneNumber: authUsers.phoneNumber, language: patients.language })
    .from(patients)
    .innerJoin(authUsers, eq(authUsers.id, patients.userId))
    .where(and(eq(patients.id, options.patientId), sql`${authUsers.phoneNumberVerified}`));
  return row === undefined || row.phoneNumber === null ? null : { ...row, phoneNumber: row.phoneNumber };
}
