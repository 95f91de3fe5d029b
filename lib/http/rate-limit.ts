import 'server-only';
import { DomainError } from '@/lib/commerce/errors';
import {
  purgeRateLimitWindows, rateLimitBucket, windowStartOf, PURGE_PROBABILITY, RateLimitLeases,
  type RateLimitKind, type RateLimitPolicy, type RateLimitState,
} from '@/lib/commerce/rate-limits';
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
    state = leases.takeNow(request) ?? (await leases.take(database, request));
  } catch (error) {
    // A read needs no write lock but its counter does: when another writer holds the lock
    // past the busy timeout, serve the read uncounted rather than fail it. A write would
    // need the lock anyway, so it fails as busy (503) like any write.
    if (input.kind === 'read' && isBusy(error)) return {};
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

function isBusy(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /BUSY|LOCKED/.test(code)) return true;
    if (e instanceof Error && /SQLITE_BUSY|database is locked/i.test(e.message)) return true;
  }
  return false;
}
