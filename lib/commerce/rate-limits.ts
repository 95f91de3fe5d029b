import { createHmac } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';

export type RateLimitKind = 'read' | 'write';

/** A budget: at most `limit` requests per fixed window of `windowSeconds`. */
export type RateLimitPolicy = { name: 'reads' | 'writes'; limit: number; windowSeconds: number };

export type RateLimitState = {
  policy: RateLimitPolicy;
  allowed: boolean;
  /** Requests left in this window after this one (never negative). */
  remaining: number;
  /** Whole seconds until the window resets (at least 1). */
  resetSeconds: number;
};

/** How often a request also sweeps windows that can no longer matter (about 1 in 200). */
export const PURGE_PROBABILITY = 1 / 200;

// Windows are aligned to the epoch, so every instance agrees on where one starts.
export function windowStartOf(nowMs: number, windowSeconds: number): number {
  const size = windowSeconds * 1000;
  return Math.floor(nowMs / size) * size;
}

/**
 * The counter a request is charged to. Reads are per credential; writes are per
 * credential and, when the caller names the shopper (Site-Buyer-IP), per shopper too.
 * The address is never stored: the bucket carries an HMAC of it, keyed with the
 * deployment's secret and the window, so one shopper's buckets do not link across windows.
 */
export function rateLimitBucket(input: {
  credentialId: string;
  kind: RateLimitKind;
  buyerIp: string | null;
  windowStart: number;
  secret: string;
}): string {
  if (input.kind === 'read') return `${input.credentialId}:r`;
  if (!input.buyerIp) return `${input.credentialId}:w`;
  const shopper = createHmac('sha256', input.secret)
    .update(`${input.credentialId}\n${input.windowStart}\n${input.buyerIp}`)
    .digest('base64url')
    .slice(0, 22);
  return `${input.credentialId}:w:${shopper}`;
}

/**
 * Counts one request against a budget: a single atomic upsert, so concurrent requests
 * on any number of instances sharing the database all see a consistent count.
 */
export async function consumeRateLimit(
  database: DbOrTx,
  input: { bucket: string; policy: RateLimitPolicy; now: number },
): Promise<RateLimitState> {
  const { bucket, policy, now } = input;
  const windowStart = windowStartOf(now, policy.windowSeconds);
  const rows = await database.all<{ count: number }>(sql`
    INSERT INTO rate_limit_counters (bucket, window_start, count) VALUES (${bucket}, ${windowStart}, 1)
    ON CONFLICT (bucket, window_start) DO UPDATE SET count = count + 1
    RETURNING count`);
  const count = Number(rows[0]?.count ?? 1);
  const resetSeconds = Math.max(1, Math.ceil((windowStart + policy.windowSeconds * 1000 - now) / 1000));
  return { policy, allowed: count <= policy.limit, remaining: Math.max(0, policy.limit - count), resetSeconds };
}

/** Deletes windows older than the previous one; cheap thanks to the window_start index. */
export async function purgeRateLimitWindows(database: DbOrTx, input: { now: number; windowSeconds: number }): Promise<number> {
  const keepFrom = windowStartOf(input.now, input.windowSeconds) - input.windowSeconds * 1000;
  const result = await database.run(sql`DELETE FROM rate_limit_counters WHERE window_start < ${keepFrom}`);
  return Number(result.rowsAffected ?? 0);
}
