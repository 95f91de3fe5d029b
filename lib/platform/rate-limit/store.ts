import { createHmac } from 'node:crypto';
import { isIP } from 'node:net';
import { sql } from 'drizzle-orm';
import type { DbOrTx, Result, Riders } from '@/db';
import { storageFaultOf } from '@/db/faults';

export type RateLimitKind = 'read' | 'write';

/**
 * A budget: at most `limit` requests per fixed window of `windowSeconds`. `reads` and
 * `writes` are a credential's; `shopper-reads` and `shopper-writes` are one shopper's share
 * of them (the shopper named by Site-Buyer-IP).
 */
export type RateLimitPolicy = { name: 'reads' | 'writes' | 'shopper-reads' | 'shopper-writes'; limit: number; windowSeconds: number };

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
 * The shopper a text address stands for, or null when it is not an IP address (it is
 * then ignored, never trusted). IPv4 as written; an IPv4-mapped IPv6 address as its IPv4;
 * any other IPv6 address as its /64 network, the block one subscriber's router hands out
 * (a shopper could otherwise take a new budget with each of 2^64 addresses).
 */
export function shopperKeyOf(value: string | null | undefined): string | null {
  const text = (value ?? '').trim();
  if (text.length === 0 || text.length > 64) return null;
  const version = isIP(text);
  if (version === 4) return text;
  if (version !== 6) return null;
  let groups: string[];
  try {
    // The URL parser writes IPv6 in one canonical form (and an embedded IPv4 as hex).
    groups = expandIpv6(new URL(`http://[${text.replace(/%.*$/, '')}]`).hostname.slice(1, -1));
  } catch {
    return null;
  }
  if (groups.slice(0, 5).every((g) => g === '0') && groups[5] === 'ffff') {
    const [hi, lo] = [parseInt(groups[6]!, 16), parseInt(groups[7]!, 16)];
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return `${groups.slice(0, 4).join(':')}::/64`;
}

function expandIpv6(compressed: string): string[] {
  const [head = '', tail] = compressed.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const middle = tail === undefined ? [] : Array.from({ length: 8 - left.length - right.length }, () => '0');
  return [...left, ...middle, ...right].map((g) => parseInt(g, 16).toString(16));
}

/** The credential's own counter for a kind of request: every request is charged to it. */
export function credentialBucket(credentialId: string, kind: RateLimitKind): string {
  return `${credentialId}:${kind === 'read' ? 'r' : 'w'}`;
}

/**
 * The shopper's counter, charged *in addition to* the credential's when the caller names
 * the shopper (Site-Buyer-IP), so naming shoppers can never widen the credential's budget.
 * The address is never stored: the bucket carries an HMAC of it, keyed with the
 * deployment's secret and the window, so one shopper's buckets do not link across windows.
 */
export function shopperBucket(input: {
  credentialId: string;
  kind: RateLimitKind;
  buyerIp: string;
  windowStart: number;
  secret: string;
}): string {
  const shopper = createHmac('sha256', input.secret)
    .update(`${input.credentialId}\n${input.kind}\n${input.windowStart}\n${input.buyerIp}`)
    .digest('base64url')
    .slice(0, 22);
  return `${credentialBucket(input.credentialId, input.kind)}:${shopper}`;
}

/**
 * Which of two states a caller should be told about: a refusal first, else the budget with
 * the fewest requests left (ties: the one that resets later).
 */
export function tighterState(a: RateLimitState, b: RateLimitState | null): RateLimitState {
  if (!b) return a;
  if (a.allowed !== b.allowed) return a.allowed ? b : a;
  if (a.remaining !== b.remaining) return a.remaining < b.remaining ? a : b;
  return a.resetSeconds >= b.resetSeconds ? a : b;
}

/**
 * Counts requests against a budget: a single atomic upsert, so concurrent requests on any
 * number of instances sharing the database all see a consistent count. `amount` claims
 * several at once (a lease, below); the state describes the first of them.
 */
export async function consumeRateLimit(
  database: DbOrTx,
  input: { bucket: string; policy: RateLimitPolicy; now: number; amount?: number },
): Promise<RateLimitState> {
  const count = await claimCount(database, input);
  const first = count - (input.amount ?? 1) + 1;
  return stateAt(input.policy, input.now, first, first <= input.policy.limit, count);
}

/** The budget's shared counter as it stands, read without the write lock (0 before the first claim). */
async function countedSoFar(database: DbOrTx, input: { bucket: string; policy: RateLimitPolicy; now: number }): Promise<number> {
  const windowStart = windowStartOf(input.now, input.policy.windowSeconds);
  const rows = await database.all<{ count: number }>(sql`
    SELECT count FROM rate_limit_counters WHERE bucket = ${input.bucket} AND window_start = ${windowStart}`);
  return Number(rows[0]?.count ?? 0);
}

async function claimCount(
  database: DbOrTx,
  input: { bucket: string; policy: RateLimitPolicy; now: number; amount?: number },
): Promise<number> {
  const amount = input.amount ?? 1;
  const windowStart = windowStartOf(input.now, input.policy.windowSeconds);
  const rows = await database.all<{ count: number }>(sql`
    INSERT INTO rate_limit_counters (bucket, window_start, count) VALUES (${input.bucket}, ${windowStart}, ${amount})
    ON CONFLICT (bucket, window_start) DO UPDATE SET count = count + ${amount}
    RETURNING count`);
  return Number(rows[0]?.count ?? amount);
}

/**
 * The state after the request counted as number `n` of its window, when the budget's
 * shared counter stands at `claimed` (n itself included): what is left is the budget
 * minus what every instance has claimed, plus what this instance holds but has not used.
 */
function stateAt(policy: RateLimitPolicy, now: number, n: number, allowed: boolean, claimed: number, held = 0): RateLimitState {
  const windowStart = windowStartOf(now, policy.windowSeconds);
  const resetSeconds = Math.max(1, Math.ceil((windowStart + policy.windowSeconds * 1000 - now) / 1000));
  const remaining = allowed ? Math.max(0, Math.min(policy.limit - n, policy.limit - claimed + held)) : 0;
  return { policy, allowed, remaining, resetSeconds };
}

/**
 * How many requests an instance claims from the shared counter at once. A budget below
 * 2,000 is counted one request at a time, exactly; a larger one in leases of up to 32
 * (a 100,000 budget: one database write per 32 requests instead of one per request).
 */
export function leaseSizeFor(limit: number): number {
  return Math.max(1, Math.min(32, Math.floor(limit / 1000)));
}

/**
 * A budget's claim carried by a write's own batch (Riders, db/statements.ts): one request to
 * a database over a network where a claim before the write and the write were two. The
 * claim and its check (db/migrations: rate_limit_checks) commit or fail with the write, so
 * the count stays the one truth on every instance: a request over the budget fails its
 * batch, and nothing of it (the write, the claim) stays.
 */
export type RidingClaim = Riders & {
  /** The batch failed: the budget's refusal when its check is what failed it, else null. */
  refusal(error: unknown): RateLimitState | null;
  /** The state the claim came to (null until its batch committed or was refused). */
  state(): RateLimitState | null;
};

/** Did a batch fail on a riding claim's check (the budget had nothing left)? */
export function isRateLimitSpent(error: unknown): boolean {
  for (let e = error; e instanceof Error; e = e.cause) if (e.message.includes('rate limit spent')) return true;
  return false;
}

type Lease = {
  windowStart: number;
  /** The count number the next request of this instance takes; it may take up to `last`. */
  next: number;
  last: number;
  /** The shared counter after this instance's latest claim. */
  claimed: number;
  /** The budget ran out at the latest claim: the window has nothing more to give anyone. */
  exhausted: boolean;
  /** Requests admitted while no claim could be written, charged to the counter at the next claim. */
  owed: number;
  claiming: Promise<void> | null;
};

/**
 * A budget counted in the database, claimed in leases (see leaseSizeFor). The counter in
 * the database is the only truth: an instance claims a block of the budget with one
 * atomic upsert and spends it on its next requests, so all instances together never
 * admit more than the budget. What a lease can cost is the other way round: requests an
 * instance claimed but did not use before the window ended (at most one lease per
 * instance and window) are refused to no one but also served to no one. A process that
 * dies loses only its unspent lease; nothing here needs to reach another instance.
 *
 * When a claim cannot be written (another process holds the write lock, or the storage
 * cannot be written at all) a request that may go on anyway (`owe`: a read, which needs no
 * lock) is admitted only within what is known to be left: the shared counter as it stands
 * (read without the lock) plus what this instance already owes must stay below the budget,
 * else it is refused (429). What it owes is charged to the counter at its next claim. So
 * one instance that cannot write never admits more than the budget; several that cannot
 * write at the same moment could each spend what was left when they last saw the counter
 * (docs/limits.md).
 */
export class RateLimitLeases {
  private readonly leases = new Map<string, Lease>();

  constructor(private readonly maxBuckets = 10_000) {}

  /**
   * The request's state when this instance's lease can answer it at once (no database,
   * no promise: the common case); null when it needs a claim (use take).
   */
  takeNow(input: { bucket: string; policy: RateLimitPolicy; now: number }): RateLimitState | null {
    const { bucket, policy, now } = input;
    const lease = this.leases.get(bucket);
    if (!lease || lease.windowStart < windowStartOf(now, policy.windowSeconds)) return null;
    if (lease.next <= lease.last) {
      const n = lease.next++;
      return stateAt(policy, now, n, true, lease.claimed, lease.last - n);
    }
    return lease.exhausted ? stateAt(policy, now, lease.claimed, false, lease.claimed) : null;
  }

  async take(
    database: DbOrTx,
    input: { bucket: string; policy: RateLimitPolicy; now: number },
    options: { owe?: boolean } = {},
  ): Promise<RateLimitState> {
    const { bucket, policy, now } = input;
    const windowStart = windowStartOf(now, policy.windowSeconds);
    for (;;) {
      let lease = this.leases.get(bucket);
      if (!lease || lease.windowStart < windowStart) {
        lease = { windowStart, next: 1, last: 0, claimed: 0, exhausted: false, owed: 0, claiming: null };
        this.remember(bucket, lease);
      }
      if (lease.next <= lease.last) {
        const n = lease.next++;
        return stateAt(policy, now, n, true, lease.claimed, lease.last - n);
      }
      if (lease.exhausted) return stateAt(policy, now, lease.claimed, false, lease.claimed);
      lease.claiming ??= this.claim(database, bucket, policy, now, lease).finally(() => {
        lease.claiming = null;
      });
      try {
        await lease.claiming;
      } catch (error) {
        if (!options.owe || !storageFaultOf(error)) throw error;
        return this.owe(database, { bucket, policy, now }, lease);
      }
    }
  }

  /**
   * A claim written by the request's own write batch instead of a request of its own
   * (RidingClaim): the same upsert as a lease's claim, and the check that fails the batch
   * (undoing the write with the claim) when the budget had nothing left for this request.
   * For a request takeNow could not answer.
   */
  ride(input: { bucket: string; policy: RateLimitPolicy; now: number }): RidingClaim {
    const { bucket, policy, now } = input;
    const windowStart = windowStartOf(now, policy.windowSeconds);
    const amount = leaseSizeFor(policy.limit);
    let state: RateLimitState | null = null;
    const leaseNow = (): Lease => {
      let lease = this.leases.get(bucket);
      if (!lease || lease.windowStart < windowStart) {
        lease = { windowStart, next: 1, last: 0, claimed: 0, exhausted: false, owed: 0, claiming: null };
        this.remember(bucket, lease);
      }
      return lease;
    };
    return {
      statements: [
        {
          sql: `INSERT INTO rate_limit_counters (bucket, window_start, count) VALUES (?, ?, ?)
            ON CONFLICT (bucket, window_start) DO UPDATE SET count = count + excluded.count RETURNING count`,
          args: [bucket, windowStart, amount],
        },
        // The first of the claimed requests (this one) must be within the budget.
        {
          sql: 'INSERT INTO rate_limit_checks (bucket, window_start, "limit") VALUES (?, ?, ?)',
          args: [bucket, windowStart, policy.limit + amount - 1],
        },
      ],
      settle: (results: Result[]) => {
        const count = Number(results[0]?.rows[0]?.count ?? amount);
        const first = count - amount + 1;
        const lease = leaseNow();
        // The rest of the claim (a lease of more than one) is this instance's to spend next.
        lease.claimed = Math.max(lease.claimed, count);
        if (amount > 1) {
          lease.next = first + 1;
          lease.last = Math.min(count, policy.limit);
        }
        lease.exhausted ||= count >= policy.limit;
        state = stateAt(policy, now, first, true, lease.claimed, Math.max(0, lease.last - first));
      },
      refusal: (error: unknown) => {
        if (state === null && isRateLimitSpent(error)) {
          const lease = leaseNow();
          lease.claimed = Math.max(lease.claimed, policy.limit);
          lease.exhausted = true;
          state = stateAt(policy, now, lease.claimed, false, lease.claimed);
        }
        return state && !state.allowed ? state : null;
      },
      state: () => state,
    };
  }

  /**
   * Hands back a request's share of a budget taken for a request that was then refused by
   * another budget (its shopper's), as if it had not been taken: only within the window it
   * was taken in.
   */
  giveBack(input: { bucket: string; policy: RateLimitPolicy; now: number }): void {
    const lease = this.leases.get(input.bucket);
    if (lease && lease.windowStart === windowStartOf(input.now, input.policy.windowSeconds) && lease.next > 1) {
      lease.next -= 1;
    }
  }

  private async claim(database: DbOrTx, bucket: string, policy: RateLimitPolicy, now: number, lease: Lease): Promise<void> {
    const amount = leaseSizeFor(policy.limit);
    const owed = lease.owed;
    const count = await claimCount(database, { bucket, policy, now, amount: amount + owed });
    lease.owed -= owed;
    // The owed requests take the first numbers of the claim, the lease the rest.
    const first = count - amount + 1;
    lease.claimed = count;
    lease.next = first;
    lease.last = Math.min(count, policy.limit);
    lease.exhausted = count >= policy.limit;
  }

  /** A request admitted without a claim, if what is known to be left allows it (see the class). */
  private async owe(
    database: DbOrTx,
    input: { bucket: string; policy: RateLimitPolicy; now: number },
    lease: Lease,
  ): Promise<RateLimitState> {
    const counted = await countedSoFar(database, input).catch(() => 0);
    lease.claimed = Math.max(lease.claimed, counted);
    const n = lease.claimed + lease.owed + 1;
    if (n > input.policy.limit) return stateAt(input.policy, input.now, n, false, n);
    lease.owed += 1;
    return stateAt(input.policy, input.now, n, true, n);
  }

  private remember(bucket: string, lease: Lease): void {
    this.leases.delete(bucket);
    this.leases.set(bucket, lease);
    // Oldest first out: an evicted lease only strands its unspent part of one window.
    while (this.leases.size > this.maxBuckets) this.leases.delete(this.leases.keys().next().value!);
  }
}

/** Deletes windows older than the previous one; cheap thanks to the window_start index. */
export async function purgeRateLimitWindows(database: DbOrTx, input: { now: number; windowSeconds: number }): Promise<number> {
  const keepFrom = windowStartOf(input.now, input.windowSeconds) - input.windowSeconds * 1000;
  const result = await database.run(sql`DELETE FROM rate_limit_counters WHERE window_start < ${keepFrom}`);
  return Number(result.rowsAffected ?? 0);
}
