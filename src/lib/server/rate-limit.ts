import 'server-only';
import { createHash } from 'node:crypto';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { rateLimitCounters } from '@/db/schema';

/** The stored key of a subject's counters: the scope and a hash of the subject (never the subject itself). */
function counterKey(scope: string, subject: string): string {
  return `${scope}:${createHash('sha256').update(subject).digest('base64url')}`;
}

function windowStartOf(now: Date, windowSeconds: number): Date {
  const milliseconds = windowSeconds * 1000;
  return new Date(Math.floor(now.getTime() / milliseconds) * milliseconds);
}

export type RateLimitResult = { allowed: boolean; hits: number; limit: number; retryAfterSeconds: number };

/**
 * Counts one hit for `subject` in the current fixed window and says whether it is within `limit`.
 * The counter is a single atomic upsert in the database, so the limit holds across app instances.
 * The subject (a client address, a phone number) is stored only as a hash.
 */
export async function consumeRateLimit(options: {
  database: Database;
  scope: string;
  subject: string;
  limit: number;
  windowSeconds: number;
  now?: Date;
}): Promise<RateLimitResult> {
  const now = options.now ?? new Date();
  const windowMilliseconds = options.windowSeconds * 1000;
  const windowStart = windowStartOf(now, options.windowSeconds);
  const key = counterKey(options.scope, options.subject);

  const [row] = await options.database
    .insert(rateLimitCounters)
    .values({ key, windowStart, hits: 1 })
    .onConflictDoUpdate({
      target: [rateLimitCounters.key, rateLimitCounters.windowStart],
      set: { hits: sql`${rateLimitCounters.hits} + 1` },
    })
    .returning({ hits: rateLimitCounters.hits });
  const hits = row?.hits ?? 1;

  if (hits === 1) {
    // A new window began for this key: drop counters whose windows ended long ago (any scope).
    const horizon = new Date(now.getTime() - 24 * 60 * 60 * 1000);
    await options.database.delete(rateLimitCounters).where(lt(rateLimitCounters.windowStart, horizon));
  }

  const retryAfterSeconds = Math.max(1, Math.ceil((windowStart.getTime() + windowMilliseconds - now.getTime()) / 1000));
  return { allowed: hits <= options.limit, hits, limit: options.limit, retryAfterSeconds };
}

/**
 * A sliding-window limit: hits are counted in small buckets (a sixtieth of the window, at least a second) and
 * the buckets of the last `windowSeconds` are summed, so "1 a minute" means one per any 60 seconds — not one
 * before and one after a minute boundary, as a fixed window would allow.
 */
export async function consumeSlidingRateLimit(options: {
  database: Database;
  scope: string;
  subject: string;
  limit: number;
  windowSeconds: number;
  now?: Date;
}): Promise<RateLimitResult> {
  const now = options.now ?? new Date();
  const bucketSeconds = Math.max(1, Math.floor(options.windowSeconds / 60));
  await consumeRateLimit({
    ...options,
    scope: `${options.scope}:sliding`,
    limit: Number.MAX_SAFE_INTEGER,
    windowSeconds: bucketSeconds,
    now,
  });
  const key = counterKey(`${options.scope}:sliding`, options.subject);
  const hits = await countSlidingHits({ ...options, now }); // this bucket included
  if (hits > options.limit) {
    // A refused hit is not counted (so retrying too early does not push the window on); under a race both
    // contenders are refused, which errs on the safe side.
    const bucketStart = windowStartOf(now, bucketSeconds);
    await options.database
      .update(rateLimitCounters)
      .set({ hits: sql`${rateLimitCounters.hits} - 1` })
      .where(and(eq(rateLimitCounters.key, key), eq(rateLimitCounters.windowStart, bucketStart)));
    return { allowed: false, hits: hits - 1, limit: options.limit, retryAfterSeconds: options.windowSeconds };
  }
  return { allowed: true, hits, limit: options.limit, retryAfterSeconds: options.windowSeconds };
}

/** The hits `subject` has in the last `windowSeconds` of a sliding limit, without counting one. */
export async function countSlidingHits(options: {
  database: Database;
  scope: string;
  subject: string;
  windowSeconds: number;
  now?: Date;
}): Promise<number> {
  const now = options.now ?? new Date();
  const since = new Date(now.getTime() - options.windowSeconds * 1000);
  const [row] = await options.database
    .select({ hits: sql<number>`coalesce(sum(${rateLimitCounters.hits}), 0)::int` })
    .from(rateLimitCounters)
    .where(
      and(eq(rateLimitCounters.key, counterKey(`${options.scope}:sliding`, options.subject)), gt(rateLimitCounters.windowStart, since)),
    );
  return row?.hits ?? 0;
}

/** Forgets every hit `subject` has in a sliding limit (a success that ends a run of failures). */
export async function clearSlidingHits(options: { database: Database; scope: string; subject: string }): Promise<void> {
  await options.database
    .delete(rateLimitCounters)
    .where(eq(rateLimitCounters.key, counterKey(`${options.scope}:sliding`, options.subject)));
}
