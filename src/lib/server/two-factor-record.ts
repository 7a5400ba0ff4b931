import 'server-only';
import { generateRandomString, symmetricEncrypt } from 'better-auth/crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { authTwoFactors, authUsers } from '@/db/schema';

type SecretConfig = Parameters<typeof symmetricEncrypt>[0]['key'];

/**
 * Gives a user with two-factor sign-in on the two-factor row better-auth keeps its failure count and lock on.
 * Only an authenticator-app enrolment creates that row, so without this an SMS-only user's wrong codes were
 * never counted and never locked (10 in a row lock for 15 minutes). The row is an unconfirmed app enrolment
 * (`verified` false: no app code is accepted for it) with a random key nobody knows and no backup codes,
 * encrypted as better-auth stores its own; setting up an app later replaces both.
 */
export async function ensureTwoFactorRecord(options: {
  database: Database;
  /** The user, by id or (at a password sign-in, where no session exists yet) by e-mail address. */
  user: { id: string } | { email: string };
  secretConfig: SecretConfig;
}): Promise<void> {
  const { database } = options;
  // Runs after every successful password sign-in: one indexed read decides, and almost always nothing is needed.
  const [needing] = await database
    .select({ id: authUsers.id })
    .from(authUsers)
    .leftJoin(authTwoFactors, eq(authTwoFactors.userId, authUsers.id))
    .where(
      and(
        'id' in options.user
          ? eq(authUsers.id, options.user.id)
          : eq(sql`lower(${authUsers.email})`, options.user.email.trim().toLowerCase()),
        eq(authUsers.twoFactorEnabled, true),
        isNull(authTwoFactors.id),
      ),
    )
    .limit(1);
  if (needing === undefined) return;
  const userId = needing.id;
  const secret = await symmetricEncrypt({ key: options.secretConfig, data: generateRandomString(32) });
  const backupCodes = await symmetricEncrypt({ key: options.secretConfig, data: '[]' });
  await database.transaction(async (transaction) => {
    // Locking the user's row makes concurrent sign-ins create one record, not two with split counts.
    const [user] = await transaction
      .select({ twoFactorEnabled: authUsers.twoFactorEnabled })
      .from(authUsers)
      .where(eq(authUsers.id, userId))
      .for('update');
    if (user?.twoFactorEnabled !== true) return;
    const [existing] = await transaction
      .select({ id: authTwoFactors.id })
      .from(authTwoFactors)
      .where(eq(authTwoFactors.userId, userId))
      .limit(1);
    if (existing !== undefined) return;
    await transaction.insert(authTwoFactors).values({ id: crypto.randomUUID(), userId, secret, backupCodes, verified: false });
  });
}
