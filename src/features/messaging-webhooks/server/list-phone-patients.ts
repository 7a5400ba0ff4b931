import 'server-only';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { authUsers, patients } from '@/db/schema';

const choiceLimit = 200;

/** Patients the local phone can play: those whose account has a verified number (inbound webhooks find them by it). */
export async function listPhonePatients(options: { database: Database }): Promise<{ id: string; pseudonym: string }[]> {
  return options.database
    .select({ id: patients.id, pseudonym: patients.pseudonym })
    .from(patients)
    .innerJoin(authUsers, eq(authUsers.id, patients.userId))
    .where(and(sql`${authUsers.phoneNumberVerified}`, sql`${authUsers.phoneNumber} is not null`))
    .orderBy(asc(patients.pseudonym))
    .limit(choiceLimit);
}
