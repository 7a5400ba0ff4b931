import 'server-only';
/**
 * Test support for route handlers (like src/db/testing.ts): route handlers reach the database and better-auth
 * through process-wide singletons (getDatabase, getAuth); this points both at a test database, and signs in
 * users of given roles, so a test calls the exported POST/GET with a real Request.
 */
import type { TestDatabase } from '@/db/testing';
import type { Role } from '@/db/schema';
import { parseEnvironment } from '@/lib/env';
import { type Auth, createAuthForDatabase } from './auth';

// The keys src/db/client.ts and src/lib/server/auth.ts keep their singletons under.
const connectionKey = Symbol.for('medaptive.database-connection');
const authKey = Symbol.for('medaptive.auth');
type Holder = Record<symbol, unknown>;

export type RouteTestServer = {
  auth: Auth;
  /** A confirmed account with this role, signed in: the Cookie header its browser would send. */
  signIn: (role: Role) => Promise<string>;
  /** Puts the previous singletons back. */
  restore: () => void;
};

export async function serveRoutesFrom(database: TestDatabase): Promise<RouteTestServer> {
  const holder = globalThis as unknown as Holder;
  const previous = { connection: holder[connectionKey], auth: holder[authKey] };
  const auth = await createAuthForDatabase(database.database, parseEnvironment({ LOG_LEVEL: 'silent' }));
  holder[connectionKey] = database;
  holder[authKey] = Promise.resolve(auth);
  return {
    auth,
    signIn: async (role) => {
      const email = `${role}-${crypto.randomUUID().slice(0, 8)}@medaptive.test`;
      const password = 'Medaptive-test-1';
      const { user } = await auth.api.signUpEmail({ body: { email, password, name: role } });
      await database.execute(`update auth_users set email_verified = true where id = '${user.id}'`);
      await database.execute(`update user_profiles set role = '${role}' where uid = '${user.id}'`);
      const response = await auth.api.signInEmail({ body: { email, password }, asResponse: true });
      return (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    },
    restore: () => {
      holder[connectionKey] = previous.connection;
      holder[authKey] = previous.auth;
    },
  };
}
