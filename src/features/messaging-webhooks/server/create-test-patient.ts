import 'server-only';
import { randomBytes, randomUUID } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { authUsers, dispensings, organisations, patients, products, regimens } from '@/db/schema';
import { importConsents } from '@/features/consent';
import { outboxIsAvailable } from '@/features/outbox';
import type { Environment } from '@/lib/env';
import { AppError } from '@/lib/errors';
import { parseInput } from '@/lib/parse-input';
import { testPatientSchema } from '../phone-schemas';

/** The demo clinic (demo-data's link-demo-accounts): a test patient joins it when it exists, so the demo clinician sees them. */
const demoClinicId = 'demo-clinic';

/**
 * Development and end-to-end tests only (where the local outbox is served): a new patient the local phone can
 * play from the start — an account (no password: nobody signs in as it) with a verified number in the fictional
 * +1 555 range, WhatsApp and SMS opt-ins to reminders and surveys, enrolled in the chosen programme (fixed daily unless told), taking one medicine
 * once a day at 08:00 from a 30-day fill made ten days ago (so a message has its medicine, dose time and days
 * left). Each call makes a new one, so a test that opts its patient out or confirms its doses changes nobody else's.
 */
export async function createTestPatient(options: {
  database: Database;
  environment: Environment;
  input: unknown;
  now: Date;
}): Promise<{ id: string; pseudonym: string; phoneNumber: string }> {
  const { database, now } = options;
  if (!outboxIsAvailable(options.environment)) throw new AppError('not_found', 'There is no phone here.');
  const { language, timezone, programme, preferredChannel } = parseInput(testPatientSchema, options.input ?? {}, {
    label: 'The test-patient request',
  });
  const suffix = randomBytes(4).toString('hex');
  // 7 random digits after +1 555: unique enough for a development database; the unique index refuses a repeat.
  const phoneNumber = `+1555${String(randomBytes(4).readUInt32BE() % 10_000_000).padStart(7, '0')}`;
  return database.transaction(async (transaction) => {
    const userId = randomUUID();
    await transaction.insert(authUsers).values({
      id: userId,
      name: 'Test patient',
      email: `test-patient-${suffix}@medaptive.test`,
      phoneNumber,
      phoneNumberVerified: true,
    });
    const [clinic] = await transaction.select({ id: organisations.id }).from(organisations).where(eq(organisations.id, demoClinicId));
    const [patient] = await transaction
      .insert(patients)
      .values({
        pseudonym: `T-${suffix}`,
        source: 'dev-phone',
        sourceRecordId: suffix,
        userId,
        organisationId: clinic?.id ?? null,
        language,
        timezone,
        preferredChannel,
        messagingProgramme: programme,
        synthetic: true,
      })
      .returning({ id: patients.id, pseudonym: patients.pseudonym });
    // The catalogue's first product (the demo data's, in development); a product of its own on an empty catalogue.
    const [product] = await transaction.select({ id: products.id }).from(products).orderBy(asc(products.name)).limit(1);
    const productId =
      product?.id ??
      (
        await transaction
          .insert(products)
          .values({ id: 'dev-phone-test-medicine', name: 'Testamet 10 mg', genericName: 'testamet' })
          .onConflictDoUpdate({ target: products.id, set: { name: 'Testamet 10 mg' } })
          .returning({ id: products.id })
      )[0]!.id;
    const day = (offset: number) => new Date(now.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
    await transaction.insert(regimens).values({
      patientId: patient!.id,
      productId,
      dosesPerDay: 1,
      doseTimes: ['08:00'],
      startDate: day(-30),
      source: 'dev-phone',
      sourceRecordId: suffix,
    });
    await transaction.insert(dispensings).values({
      patientId: patient!.id,
      productId,
      dispensedOn: day(-10),
      daysSupply: 30,
      quantity: 30,
      dosesPerDay: 1,
      source: 'dev-phone',
      sourceRecordId: suffix,
    });
    await importConsents({
      database: transaction,
      source: 'demo-seed',
      // Reminders and surveys (a survey by message can be played on the phone too, decision 051).
      entries: (['whatsapp', 'sms'] as const).flatMap((channel) =>
        (['reminders', 'surveys'] as const).map((purpose) => ({
          patientId: patient!.id,
          channel,
          purpose,
          granted: true,
          effectiveAt: now,
        })),
      ),
    });
    return { id: patient!.id, pseudonym: patient!.pseudonym, phoneNumber };
  });
}
