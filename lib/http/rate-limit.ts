import 'server-only';
import { DomainError } from '@/lib/commerce/errors';
import {
  purgeRateLimitWindows, rateLimitBucket, windowStartOf, PURGE_PROBABILITY, RateLimitLeases,
  type RateLimitKind, type RateLimitPolicy, type RateLimitState,
} from '@/lib/commerce/rate-limits';
import { withoutWaiting } from '@/db/client';
import { storageFaultOf } from '@/db/faults';
import { db } from '@/lib/db';
import { env } from '@/lib/env';

export type RateLimitInput = { credentialId: string; kind: RateLimitKind; buyerIp: string | null };

// Without RATE_LIMIT_KEY the shopper buckets are only pseudonymous (see README).
const FALLBACK_KEY = 'site-delivery/rate-limit/v1';

export function policyFor(kind: RateLimitKind): RateLimitPolicy {
  const { RATE_LIMIT_READS, RATE_LIMIT_WRITES, RATE_LIMIT_WINDOW_SECONDS } = env();
  return kind === 'read'
    ? { name: 'reads', limit: RATE_LIMIT_READS, windowSeconds: RATE_LIMIT_WINDOW_SECONDS }
    : { name: 'writes', limit: RATE_LIMIT_WRITES, windowSeconds: RATE_LIMIT_WINDOW_SECONDS };
}

// One set of leases per process, however many route bundles carry a copy of this module.
const holder = globalThis as unknown as { __rateLimitLeases?: RateLimitLeases };
const leases = (holder.__rateLimitLeases ??= new RateLimitLeases());

/**
 * Counts the request against its budget in the database (claimed in leases: see
 * RateLimitLeases) and answers the RateLimit headers; throws rate_limited (429, with
 * Retry-After) past the budget. Only authenticated requests get here: a 401 has no
 * credential to charge.
 */
export async function applyRateLimit(input: RateLimitInput): Promise<Record<string, string>> {
  const policy = policyFor(input.kind);
  const now = Date.now();
  const database = db();
  const bucket = rateLimitBucket({
    ...input,
    windowStart: windowStartOf(now, policy.windowSeconds),
    secret: env().RATE_LIMIT_KEY ?? FALLBACK_KEY,
  });
  let state: RateLimitState;
  try {
    const request = { bucket, policy, now };
    // A read needs no write lock but its counter does: while another process holds the
    // lock, or the storage cannot be written (full, read-only), the read is served
    // uncounted at once rather than wait for the lock or fail. A write would need the
    // storage anyway, so it waits and fails (503) like any write.
    state = leases.takeNow(request) ?? (await leases.take(input.kind === 'read' ? withoutWaiting(database) : database, request));
  } catch (error) {
    if (input.kind === 'read' && storageFaultOf(error)) return {};
    throw error;
  }
  if (Math.random() < PURGE_PROBABILITY) {
    // Off the request's path: a failed sweep only means the next one has more to do.
    purgeRateLimitWindows(database, { now, windowSeconds: policy.windowSeconds }).catch(() => {});
  }
  const headers = rateLimitHeaders(state);
  if (!state.allowed) {
    throw new DomainError(
      'rate_limited',
      `This credential's ${policy.name} budget of ${policy.limit} requests per ${policy.windowSeconds} s is used up. Retry in ${state.resetSeconds} s.`,
      { headers: { ...headers, 'Retry-After': String(state.resetSeconds) } },
    );
  }
  return headers;
}

/**
 * The headers of draft-ietf-httpapi-ratelimit-headers (-08 and later): the policy that
 * applies to this request, and what is left of it.
 *   RateLimit-Policy: "reads";q=100000;w=60
 *   RateLimit: "reads";r=99994;t=42
 */
export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  const { name, limit, windowSeconds } = state.policy;
  return {
    'RateLimit-Policy': `"${name}";q=${limit};w=${windowSeconds}`,
    RateLimit: `"${name}";r=${state.remaining};t=${state.resetSeconds}`,
  };
}
