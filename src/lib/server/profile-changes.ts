import 'server-only';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { type DatabaseConnection, getDatabaseConnection } from '@/db/client';
import { getEnvironment } from '@/lib/env';
import { getLogger } from '@/lib/logger';

type Listener = () => void;

export type ProfileChangeHub = {
  /** Calls `listener` whenever the profile document of `uid` changes, from any instance. Returns the unsubscribe. */
  subscribe: (uid: string, listener: Listener) => () => void;
  close: () => Promise<void>;
};

/**
 * One LISTEN per process on the `profile_changed` channel (raised by triggers on user_profiles and
 * company_memberships), fanned out to the open subscriptions of this process. With PostgreSQL a change made
 * through another instance arrives here too.
 */
export async function createProfileChangeHub(connection: DatabaseConnection, databaseUrl: string | undefined): Promise<ProfileChangeHub> {
  const listeners = new Map<string, Set<Listener>>();
  const emit = (uid: string) => {
    for (const listener of listeners.get(uid) ?? []) listener();
  };

  let close: () => Promise<void>;
  if (connection.kind === 'pglite') {
    const unlisten = await (connection.driver as PGlite).listen('profile_changed', emit);
    close = unlisten;
  } else {
    let client: pg.Client | undefined;
    let stopped = false;
    const connect = async (): Promise<void> => {
      const next = new pg.Client({ connectionString: databaseUrl });
      next.on('notification', (message) => {
        if (message.payload) emit(message.payload);
      });
      next.on('error', (error: Error & { code?: string }) => {
        getLogger().warn({ errorCode: error.code }, 'profile change listener lost its connection; reconnecting');
        client = undefined;
        if (!stopped) setTimeout(() => void connect().catch(() => undefined), 1000);
      });
      await next.connect();
      await next.query('LISTEN profile_changed');
      client = next;
    };
    await connect();
    close = async () => {
      stopped = true;
      await client?.end();
    };
  }

  return {
    subscribe: (uid, listener) => {
      const set = listeners.get(uid) ?? new Set<Listener>();
      set.add(listener);
      listeners.set(uid, set);
      return () => {
        set.delete(listener);
        if (set.size === 0) listeners.delete(uid);
      };
    },
    close,
  };
}

const hubKey = Symbol.for('medaptive.profile-change-hub');
type GlobalWithHub = typeof globalThis & { [hubKey]?: Promise<ProfileChangeHub> };

export function getProfileChangeHub(): Promise<ProfileChangeHub> {
  const holder = globalThis as GlobalWithHub;
  holder[hubKey] ??= createProfileChangeHub(getDatabaseConnection(), getEnvironment().DATABASE_URL);
  return holder[hubKey];
}
