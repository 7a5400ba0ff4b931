/** What several benchmarks share: their numeric command-line options and the signed-in users they read as. */
import type { SessionUser } from '@/lib/server/session';

/** The number after `name` on the command line (`--patients 5000`), or `fallback` when it is not given. */
export function numberFlag(name: string, fallback: number): number {
  const index = process.argv.indexOf(name);
  return index === -1 ? fallback : Number(process.argv[index + 1]);
}

/** A user of `role` as the use cases receive one; `bench-<role>` is their id (the benchmark inserts them where it must). */
export function benchViewer(role: SessionUser['role']): SessionUser {
  return { id: `bench-${role}`, email: `${role}@bench.test`, name: role, role, phoneNumber: null, twoFactorEnabled: false };
}
