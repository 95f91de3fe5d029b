import 'server-only';
import { DomainError } from '@/lib/platform/errors';
import {
  credentialBucket,
  purgeRateLimitWindows,
  shopperBucket,
  tighterState,
  windowStartOf,
  PURGE_PROBABILITY,
  RateLimitLeases,
  type RateLimitKind,
  type RateLimitPolicy,
  type RateLimitState,
} from '@/lib/platform/rate-limit/store';
import { withoutWaiting } from '@/db/client';
import { db } from '@/lib/db';
import { env } from '@/lib/env';
import { processSlot } from '@/lib/process-state';
import { recordRateLimited } from '@/lib/platform/observability/metrics';

export type RateLimitInput = {
  credentialId: string;
  kind: RateLimitKind;
  /** The shopper (shopperKeyOf of Site-Buyer-IP), or null when the caller named none. */
  buyerIp: string | null;
};

// Without RATE_LIMIT_KEY the shopper buckets are only pseudonymous (see docs/limits.md).
const FALLBACK_KEY = 'site-delivery/rate-limit/v1';

export function policyFor(kind: RateLimitKind): RateLimitPolicy {
  const { RATE_LIMIT_READS, RATE_LIMIT_WRITES, RATE_LIMIT_WINDOW_SECONDS } = env();
  return kind === 'read'
    ? { name: 'reads', limit: RATE_LIMIT_READS, windowSeconds: RATE_LIMIT_WINDOW_SECONDS }
    : { name: 'writes', limit: RATE_LIMIT_WRITES, windowSeconds: RATE_LIMIT_WINDOW_SECONDS };
}

export function shopperPolicyFor(kind: RateLimitKind): RateLimitPolicy {
  const { RATE_LIMIT_READS_PER_SHOPPER, RATE_LIMIT_WRITES_PER_SHOPPER, RATE_LIMIT_WINDOW_SECONDS } = env();
  return kind === 'read'
    ? { name: 'shopper-reads', limit: RATE_LIMIT_READS_PER_SHOPPER, windowSeconds: RATE_LIMIT_WINDOW_SECONDS }
    : { name: 'shopper-writes', limit: RATE_LIMIT_WRITES_PER_SHOPPER, windowSeconds: RATE_LIMIT_WINDOW_SECONDS };
}

// One set of leases per process, however many route bundles carry a copy of this module.
const leases = processSlot('rateLimitLeases', () => new RateLimitLeases());

/**
 * Counts the request against its budgets in the database (claimed in leases: see
 * RateLimitLeases) and answers the RateLimit headers of the tighter one; throws
 * rate_limited (429, with Retry-After) past either. Every request is charged to its
 * credential; one that names a shopper is charged to that shopper's budget as well,
 * first, so a shopper refused by their own budget costs the credential nothing (one
 * shopper cannot spend everyone's budget). Only authenticated requests get here: a 401
 * has no credential to charge.
 */
export async function applyRateLimit(input: RateLimitInput): Promise<Record<string, string>> {
  const policy = policyFor(input.kind);
  const now = Date.now();
  const database = db();
  // A read needs no write lock but its counters do: while another process holds the lock,
  // or the storage cannot be written (full, read-only), a read is admitted at once, owed,
  // as long as what is known to be left of its budget allows (RateLimitLeases), rather than
  // wait for the lock or fail. A write would need the storage anyway, so it waits and
  // fails (503) like any write.
  const owe = input.kind === 'read';
  const counters = owe ? withoutWaiting(database) : database;
  const take = (bucket: string, p: RateLimitPolicy): RateLimitState | Promise<RateLimitState> => {
    const request = { bucket, policy: p, now };
    return leases.takeNow(request) ?? leases.take(counters, request, { owe });
  };
  let shopper: RateLimitState | null = null;
  if (input.buyerIp) {
    const shopperPolicy = shopperPolicyFor(input.kind);
    const bucket = shopperBucket({
      credentialId: input.credentialId,
      kind: input.kind,
      buyerIp: input.buyerIp,
      windowStart: windowStartOf(now, shopperPolicy.windowSeconds),
      secret: env().RATE_LIMIT_KEY ?? FALLBACK_KEY,
    });
    shopper = await take(bucket, shopperPolicy);
  }
  const state =
    shopper && !shopper.allowed ? shopper : tighterState(await take(credentialBucket(input.credentialId, input.kind), policy), shopper);
  if (Math.random() < PURGE_PROBABILITY) {
    // Off the request's path: a failed sweep only means the next one has more to do.
    purgeRateLimitWindows(database, { now, windowSeconds: policy.windowSeconds }).catch(() => {});
  }
  const headers = rateLimitHeaders(state);
  if (!state.allowed) {
    const { name, limit, windowSeconds } = state.policy;
    recordRateLimited(name);
    const whose = name.startsWith('shopper-') ? `This shopper's ${name.slice('shopper-'.length)}` : `This credential's ${name}`;
    throw new DomainError(
      'rate_limited',
      `${whose} budget of ${limit} requests per ${windowSeconds} s is used up. Retry in ${state.resetSeconds} s.`,
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
