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
  type RidingClaim,
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
  const now = Date.now();
  // A read needs no write lock but its counters do: while another process holds the lock,
  // or the storage cannot be written (full, read-only), a read is admitted at once, owed,
  // as long as what is known to be left of its budget allows (RateLimitLeases), rather than
  // wait for the lock or fail. A write would need the storage anyway, so it waits and
  // fails (503) like any write.
  const owe = input.kind === 'read';
  const shopper = input.buyerIp ? await take(shopperRequest(input.credentialId, input.kind, input.buyerIp, now), owe) : null;
  const state =
    shopper && !shopper.allowed
      ? shopper
      : tighterState(
          await take({ bucket: credentialBucket(input.credentialId, input.kind), policy: policyFor(input.kind), now }, owe),
          shopper,
        );
  sweepSometimes(now);
  return answerFor(state);
}

/**
 * A write's budgets when its handler writes once, in a batch that can carry the shopper's
 * claim (RidingClaim): the credential's budget is taken now, as for any request; the
 * shopper's, when this instance's lease cannot answer at once, rides in the handler's batch
 * instead of costing a request of its own before it (`riders`, null when nothing rides).
 * `settle` completes it once the request is done: a claim the handler did not carry (it
 * failed first, or had nothing to write) is made then, as applyRateLimit makes it. A
 * refusal by the shopper's budget hands the credential's share back, so a shopper refused
 * by their own budget still costs the credential nothing.
 */
export type WriteAdmission = {
  headers: Record<string, string>;
  riders: RidingClaim | null;
  /** The rate_limited error when `error` is the riding claim's refusal, else null. */
  refusal(error: unknown): DomainError | null;
  /** The RateLimit headers to answer with (the same every call); throws rate_limited when the shopper's budget is spent. */
  settle(): Promise<Record<string, string>>;
};

export async function admitWrite(input: { credentialId: string; buyerIp: string }): Promise<WriteAdmission> {
  const now = Date.now();
  const shopperClaim = shopperRequest(input.credentialId, 'write', input.buyerIp, now);
  const known = leases.takeNow(shopperClaim);
  if (known) {
    const headers = await applyKnown(input.credentialId, known, now);
    return { headers, riders: null, refusal: () => null, settle: async () => headers };
  }
  const credentialClaim = { bucket: credentialBucket(input.credentialId, 'write'), policy: policyFor('write'), now };
  const credential = await take(credentialClaim, false);
  sweepSometimes(now);
  const headers = answerFor(credential);
  const riders = leases.ride(shopperClaim);
  let refused: DomainError | null = null;
  let settled: Promise<Record<string, string>> | undefined;
  const refuse = (state: RateLimitState): DomainError => {
    if (!refused) {
      leases.giveBack(credentialClaim);
      refused = refusalOf(state);
    }
    return refused;
  };
  return {
    headers,
    riders,
    refusal: (error) => {
      const state = riders.refusal(error);
      return state ? refuse(state) : null;
    },
    settle: () =>
      (settled ??= (async () => {
        const state = riders.state() ?? (await take(shopperClaim, false));
        if (!state.allowed) throw refuse(state);
        return rateLimitHeaders(tighterState(credential, state));
      })()),
  };
}

/** A write whose shopper's state this instance's lease answered: the credential's budget next, unless the shopper is refused. */
async function applyKnown(credentialId: string, shopper: RateLimitState, now: number): Promise<Record<string, string>> {
  if (!shopper.allowed) return answerFor(shopper);
  const state = tighterState(
    await take({ bucket: credentialBucket(credentialId, 'write'), policy: policyFor('write'), now }, false),
    shopper,
  );
  sweepSometimes(now);
  return answerFor(state);
}

type Claim = { bucket: string; policy: RateLimitPolicy; now: number };

function take(request: Claim, owe: boolean): RateLimitState | Promise<RateLimitState> {
  const database = db();
  return leases.takeNow(request) ?? leases.take(owe ? withoutWaiting(database) : database, request, { owe });
}

function shopperRequest(credentialId: string, kind: RateLimitKind, buyerIp: string, now: number): Claim {
  const policy = shopperPolicyFor(kind);
  const bucket = shopperBucket({
    credentialId,
    kind,
    buyerIp,
    windowStart: windowStartOf(now, policy.windowSeconds),
    secret: env().RATE_LIMIT_KEY ?? FALLBACK_KEY,
  });
  return { bucket, policy, now };
}

function sweepSometimes(now: number): void {
  if (Math.random() < PURGE_PROBABILITY) {
    // Off the request's path: a failed sweep only means the next one has more to do.
    purgeRateLimitWindows(db(), { now, windowSeconds: env().RATE_LIMIT_WINDOW_SECONDS }).catch(() => {});
  }
}

/** The RateLimit headers of an admitted request; throws rate_limited (429, Retry-After) for a refused one. */
function answerFor(state: RateLimitState): Record<string, string> {
  if (!state.allowed) throw refusalOf(state);
  return rateLimitHeaders(state);
}

function refusalOf(state: RateLimitState): DomainError {
  const { name, limit, windowSeconds } = state.policy;
  recordRateLimited(name);
  const whose = name.startsWith('shopper-') ? `This shopper's ${name.slice('shopper-'.length)}` : `This credential's ${name}`;
  return new DomainError(
    'rate_limited',
    `${whose} budget of ${limit} requests per ${windowSeconds} s is used up. Retry in ${state.resetSeconds} s.`,
    { headers: { ...rateLimitHeaders(state), 'Retry-After': String(state.resetSeconds) } },
  );
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
