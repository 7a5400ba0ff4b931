import 'server-only';
import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { authUsers, patients } from '@/db/schema';
import { outboxIsAvailable } from '@/features/outbox';
import type { Environment } from '@/lib/env';
import { AppError } from '@/lib/errors';
import { parseInput } from '@/lib/parse-input';
import { phonePseudonymSchema } from '../phone-schemas';

/**
 * Development and tests only (where the local outbox is served): gives the account linked to a patient a
 * verified test number, so the local phone can play that patient. The number is in +1 555 01xx, the range set
 * aside for fiction, followed by digits of the account id, so it is the same on every call. Where the outbox
 * is served, SMS codes are readable by anyone anyway, so this opens nothing that was closed.
 */
export async function giveTestNumber(options: {
  database: Database;
  environment: Environment;
  input: unknown;
}): Promise<{ pseudonym: string; phoneNumber: string }> {
  const { database } = options;
  if (!outboxIsAvailable(options.environment)) throw new AppError('not_found', 'There is no phone here.');
  const { pseudonym } = parseInput(phonePseudonymSchema, options.input, { label: 'The test-number request' });
  const [patient] = await database
    .select({ userId: patients.userId, phoneNumber: authUsers.phoneNumber, verified: authUsers.phoneNumberVerified })
    .from(patients)
    .leftJoin(authUsers, eq(authUsers.id, patients.userId))
    .where(eq(patients.pseudonym, pseudonym));
  if (patient === undefined) throw new AppError('not_found', 'pseudonym: no patient has this pseudonym.');
  if (patient.userId === null) throw new AppError('validation', 'pseudonym: this patient has no account to give a number to.');
  if (patient.phoneNumber !== null && patient.verified === true) return { pseudonym, phoneNumber: patient.phoneNumber };
  const digits = BigInt(`0x${createHash('sha256').update(patient.userId).digest('hex').slice(0, 12)}`)
    .toString()
    .padStart(6, '0');
  const phoneNumber = `+1555${digits.slice(-7).padStart(7, '0')}`;
  try {
    await database.update(authUsers).set({ phoneNumber, phoneNumberVerified: true }).where(eq(authUsers.id, patient.userId));
  } catch (error) {
    throw new AppError('conflict', 'pseudonym: the test number for this account is taken by another account.', { cause: error });
  }
  return { pseudonym, phoneNumber };
}
