import 'server-only';
import type { Database } from '@/db/client';
import { DomainError } from '@/lib/commerce/errors';
import {
  claimIdempotencyKey, completeIdempotencyKey, idempotencyRequestHash, purgeExpiredIdempotencyKeys, releaseIdempotencyKey,
} from '@/lib/commerce/idempotency';
import { db } from '@/lib/db';
import { bodyTextOf } from './reply';

export type IdempotencyInput = { credentialId: string; key: string | null; method: string; path: string; bodyText: string };

/** 1–255 printable ASCII characters (CONTRACT §5). */
const KEY_PATTERN = /^[\x20-\x7E]{1,255}$/;
/** Headers that are part of an answer and so part of its replay; per-request ones (request id, rate limit) are not. */
const REPLAYED_HEADERS = ['content-type', 'content-language', 'cache-control', 'location', 'etag', 'retry-after'];
const PURGE_EVERY_MS = 60_000;

/**
 * Idempotency for every POST, after validation: a request with an `Idempotency-Key`
 * claims it for its credential in the database (so every instance agrees) and stores its
 * answer; the same key and request within 24 h replays that answer with
 * `Idempotent-Replayed: true`. Without a key the request simply runs.
 *
 * What is kept: every answer below 500 — success or the handler's 4xx (a retry of a
 * request that found, say, an unknown variant gets the same 404; send a new key to try
 * anew). What is not: a 5xx (a 503 from a locked database included) and anything thrown
 * — the claim is released and a retry runs again.
 */
export function withIdempotency(input: IdempotencyInput, run: () => Promise<Response>, baseHeaders: Record<string, string>): Promise<Response> {
  return runIdempotent(db(), input, run, baseHeaders);
}

export async function runIdempotent(
  database: Database,
  input: IdempotencyInput,
  run: () => Promise<Response>,
  baseHeaders: Record<string, string>,
): Promise<Response> {
  if (input.key === null) return run();
  if (!KEY_PATTERN.test(input.key)) {
    throw new DomainError('validation_failed', 'The Idempotency-Key header is not valid.', {
      errors: [{ pointer: '#/header/Idempotency-Key', code: 'invalid_idempotency_key', detail: 'Use 1–255 printable ASCII characters.' }],
    });
  }
  const scope = { credentialId: input.credentialId, key: input.key };
  const requestHash = idempotencyRequestHash(input.method, input.path, input.bodyText);
  const outcome = await claimIdempotencyKey(database, { ...scope, method: input.method, path: input.path, requestHash });

  switch (outcome.kind) {
    case 'mismatch':
      throw new DomainError('idempotency_key_reused', 'This Idempotency-Key was used with another request in the last 24 hours. Use a new key.');
    case 'in_flight':
      throw new DomainError('idempotency_key_in_use', 'A request with this Idempotency-Key is still in progress. Retry shortly.', {
        headers: { 'Retry-After': '1' },
      });
    case 'replay':
      return new Response(outcome.response.body === '' ? null : outcome.response.body, {
        status: outcome.response.status,
        headers: { ...baseHeaders, ...outcome.response.headers, 'Idempotent-Replayed': 'true' },
      });
    case 'claimed':
      break;
  }

  const claim = { ...scope, claimedAt: outcome.claimedAt };
  let response: Response;
  try {
    response = await run();
  } catch (error) {
    await releaseQuietly(database, claim);
    throw error;
  }
  if (response.status >= 500) {
    await releaseQuietly(database, claim);
    return response;
  }

  const known = bodyTextOf.get(response);
  const body = known ?? (await response.text());
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  try {
    await completeIdempotencyKey(database, claim, { status: response.status, headers, body });
  } catch (error) {
    // The work is done and the caller gets its answer; only the record of it failed. Free
    // the key rather than leave a claim that answers 409 until it goes stale.
    console.error('idempotency: could not store an answer', error);
    await releaseQuietly(database, claim);
  }
  await purgeOccasionally(database);
  return known !== undefined ? response : new Response(body === '' ? null : body, { status: response.status, headers: response.headers });
}

async function releaseQuietly(database: Database, claim: Parameters<typeof releaseIdempotencyKey>[1]): Promise<void> {
  try {
    await releaseIdempotencyKey(database, claim);
  } catch (error) {
    // A claim we could not release goes stale and is taken over (IN_FLIGHT_STALE_MS).
    console.error('idempotency: could not release a claim', error);
  }
}

// Per process, only to spread the purge out; correctness never depends on it (expired keys are ignored anyway).
let lastPurge = 0;
async function purgeOccasionally(database: Database): Promise<void> {
  const now = Date.now();
  if (now - lastPurge < PURGE_EVERY_MS) return;
  lastPurge = now;
  try {
    await purgeExpiredIdempotencyKeys(database, now);
  } catch (error) {
    console.error('idempotency: purge failed', error);
  }
}
