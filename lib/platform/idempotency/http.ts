import 'server-only';
import { writeBatch, type Statement } from '@/db';
import type { Database } from '@/db/client';
import { DomainError } from '@/lib/platform/errors';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  completeStatement,
  idempotencyRequestHash,
  purgeExpiredIdempotencyKeys,
  readIdempotencyKey,
  recordStatement,
  releaseIdempotencyKey,
  type KeyState,
  type StoredResponse,
} from '@/lib/platform/idempotency/store';
import { db } from '@/lib/db';
import { bodyTextOf } from '@/lib/http/body-text';
import { logger } from '@/lib/platform/observability/logger';

export type IdempotencyInput = { credentialId: string; key: string | null; method: string; path: string; bodyText: string };

/** Makes the statement that stores a request's answer with its key, given the answer. */
export type Recorder = (answer: StoredResponse) => Statement;

/**
 * The request, run by the wrapper. A handler whose writes are deferred (Reply.write)
 * commits them in one batch with `record(answer)` when given one, and throws KeyTaken when
 * that batch failed because the key was recorded meanwhile (nothing of it was written).
 */
export type IdempotentRun = (record?: Recorder) => Promise<Response>;

export class KeyTaken extends Error {
  constructor(readonly cause: unknown) {
    super('idempotency key recorded by another request');
  }
}

/** 1–255 printable ASCII characters (docs/api.md). */
const KEY_PATTERN = /^[\x20-\x7E]{1,255}$/;
/** Headers that are part of an answer and so part of its replay; per-request ones (request id, rate limit) are not. */
const REPLAYED_HEADERS = ['content-type', 'content-language', 'cache-control', 'location', 'etag', 'retry-after'];
const PURGE_EVERY_MS = 60_000;

/**
 * Idempotency for every POST, after validation: a request with an `Idempotency-Key`
 * stores its answer under the key for its credential in the database (so every instance
 * agrees); the same key and request within 24 h replays that answer with
 * `Idempotent-Replayed: true`. Without a key the request simply runs.
 *
 * What is kept: every answer below 500 — success or the handler's 4xx (a retry of a
 * request that found, say, an unknown variant gets the same 404; send a new key to try
 * anew). What is not: a 5xx (a 503 from a locked database included) and anything thrown.
 *
 * Two ways, one outcome — the work is committed once per key:
 * - `deferredWrites` (the handler's writes are one batch, committed by the wrapper): the
 *   handler runs and its answer is stored in the very batch that commits the work — one
 *   write in all, and no read first: nearly every key is new. When the key is there
 *   already (a retry, or two requests with one key at once), that batch fails on it and
 *   writes nothing, and only then is the key read: the request replays the stored answer
 *   (or is refused as the key's state says), so a retry computes again but changes nothing.
 * - otherwise the key is claimed first (a row "in flight"; a concurrent request with it is
 *   answered 409 idempotency_key_in_use), the handler runs, and its answer is stored.
 */
export function withIdempotency(
  input: IdempotencyInput,
  run: IdempotentRun,
  baseHeaders: Record<string, string>,
  options: { deferredWrites?: boolean } = {},
): Promise<Response> {
  return runIdempotent(db(), input, run, baseHeaders, options);
}

export async function runIdempotent(
  database: Database,
  input: IdempotencyInput,
  run: IdempotentRun,
  baseHeaders: Record<string, string>,
  options: { deferredWrites?: boolean } = {},
): Promise<Response> {
  if (input.key === null) return run();
  if (!KEY_PATTERN.test(input.key)) {
    throw new DomainError('validation_failed', 'The Idempotency-Key header is not valid.', {
      errors: [{ pointer: '#/header/Idempotency-Key', code: 'invalid_idempotency_key', detail: 'Use 1–255 printable ASCII characters.' }],
    });
  }
  const scope = {
    credentialId: input.credentialId,
    key: input.key,
    method: input.method,
    path: input.path,
    requestHash: idempotencyRequestHash(input.method, input.path, input.bodyText),
  };

  if (options.deferredWrites) return runRecording(database, scope, run, baseHeaders);
  return runClaiming(database, scope, run, baseHeaders);
}

type Scope = Parameters<typeof recordStatement>[1];

/** The answer is stored with the work, or after it when there was no deferred work, unless the key is taken. */
async function runRecording(database: Database, scope: Scope, run: IdempotentRun, baseHeaders: Record<string, string>): Promise<Response> {
  let recorded = false;
  let response: Response;
  try {
    response = await run((answer) => {
      recorded = true;
      return recordStatement(database, scope, answer);
    });
  } catch (error) {
    if (error instanceof KeyTaken) return answerForTakenKey(database, scope, run, baseHeaders);
    throw error;
  }
  if (response.status >= 500) return finish(database, await storedAnswerOr(database, scope, response, baseHeaders));
  if (recorded) return finish(database, response);
  // No deferred work (a problem answer, say): store the answer alone.
  const answer = await answerOf(response);
  try {
    await writeBatch(database, [recordStatement(database, scope, answer)]);
  } catch (error) {
    if (isConstraintViolation(error)) return answerForTakenKey(database, scope, run, baseHeaders);
    logger().error({ err: error }, 'idempotency: could not store an answer');
  }
  return finish(database, withBody(response, answer.body));
}

/**
 * The key was there when this request's answer was to be stored (this one wrote nothing):
 * answer as the key says. An expired key, or a claim whose request died, is taken over as a
 * claim takes it, and the request runs again.
 */
async function answerForTakenKey(
  database: Database,
  scope: Scope,
  run: IdempotentRun,
  baseHeaders: Record<string, string>,
): Promise<Response> {
  const state = await readIdempotencyKey(database, scope);
  if (state.kind === 'absent' || state.kind === 'abandoned') return runClaiming(database, scope, run, baseHeaders);
  return answerFor(state, baseHeaders);
}

/** A failed run (5xx) of a key answered before still replays that answer; else the failure. */
async function storedAnswerOr(database: Database, scope: Scope, failed: Response, baseHeaders: Record<string, string>): Promise<Response> {
  let state: KeyState;
  try {
    state = await readIdempotencyKey(database, scope);
  } catch {
    return failed; // the database that failed the run fails this read too
  }
  return state.kind === 'absent' || state.kind === 'abandoned' ? failed : answerFor(state, baseHeaders);
}

async function runClaiming(database: Database, scope: Scope, run: IdempotentRun, baseHeaders: Record<string, string>): Promise<Response> {
  const outcome = await claimIdempotencyKey(database, scope);
  if (outcome.kind !== 'claimed') return answerFor(outcome, baseHeaders);

  const claim = { credentialId: scope.credentialId, key: scope.key, claimedAt: outcome.claimedAt };
  let completed = false;
  let response: Response;
  try {
    response = await run((answer) => {
      completed = true;
      return completeStatement(database, claim, answer);
    });
  } catch (error) {
    await releaseQuietly(database, claim);
    throw error instanceof KeyTaken ? error.cause : error;
  }
  if (response.status >= 500) {
    await releaseQuietly(database, claim);
    return response;
  }
  if (completed) return finish(database, response);

  const answer = await answerOf(response);
  try {
    await completeIdempotencyKey(database, claim, answer);
  } catch (error) {
    // The work is done and the caller gets its answer; only the record of it failed. Free
    // the key rather than leave a claim that answers 409 until it goes stale.
    logger().error({ err: error }, 'idempotency: could not store an answer');
    await releaseQuietly(database, claim);
  }
  return finish(database, withBody(response, answer.body));
}

function answerFor(state: Exclude<KeyState, { kind: 'absent' | 'abandoned' }>, baseHeaders: Record<string, string>): Response {
  switch (state.kind) {
    case 'mismatch':
      throw new DomainError(
        'idempotency_key_reused',
        'This Idempotency-Key was used with another request in the last 24 hours. Use a new key.',
      );
    case 'in_flight':
      throw new DomainError('idempotency_key_in_use', 'A request with this Idempotency-Key is still in progress. Retry shortly.', {
        headers: { 'Retry-After': '1' },
      });
    case 'replay':
      return new Response(state.response.body === '' ? null : state.response.body, {
        status: state.response.status,
        headers: { ...baseHeaders, ...state.response.headers, 'Idempotent-Replayed': 'true' },
      });
  }
}

/** What is stored of an answer: status, the answer's own headers, the body text. */
export async function answerOf(response: Response): Promise<StoredResponse> {
  const body = bodyTextOf.get(response) ?? (await response.text());
  bodyTextOf.set(response, body);
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  return { status: response.status, headers, body };
}

/** The response again if its body was not read, else a copy with the body it had. */
function withBody(response: Response, body: string): Response {
  if (!response.bodyUsed) return response;
  const copy = new Response(body === '' ? null : body, { status: response.status, headers: response.headers });
  bodyTextOf.set(copy, body);
  return copy;
}

/**
 * Commits a handler's deferred writes, with the statement that stores its answer when the
 * request has a key, in one batch. KeyTaken when that batch broke on the key.
 */
export async function commitDeferred(database: Database, statements: Statement[], record: Statement | null): Promise<void> {
  try {
    await writeBatch(database, record ? [...statements, record] : statements);
  } catch (error) {
    if (record && isConstraintViolation(error)) throw new KeyTaken(error);
    throw error;
  }
}

function isConstraintViolation(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = `${(e as { code?: unknown }).code ?? ''} ${(e as { extendedCode?: unknown }).extendedCode ?? ''}`;
    if (/SQLITE_CONSTRAINT/.test(code)) return true;
  }
  return false;
}

async function finish(database: Database, response: Response): Promise<Response> {
  await purgeOccasionally(database);
  return response;
}

async function releaseQuietly(database: Database, claim: Parameters<typeof releaseIdempotencyKey>[1]): Promise<void> {
  try {
    await releaseIdempotencyKey(database, claim);
  } catch (error) {
    // A claim we could not release goes stale and is taken over (IN_FLIGHT_STALE_MS).
    logger().error({ err: error }, 'idempotency: could not release a claim');
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
    logger().error({ err: error }, 'idempotency: purge failed');
  }
}
