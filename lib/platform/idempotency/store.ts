import { hash } from 'node:crypto';
import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import { idempotencyKeys } from '@/db/schema';
import type { Statement } from '@/db';
import type { DbOrTx } from '@/db/client';
import { prepared, statementOf } from '@/db/prepared';

/** Keys are kept this long (docs/api.md, Limits); an expired key is as good as never used. */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
/**
 * A claim still in flight after this long belongs to a request that died (a killed process,
 * a lost connection) and is taken over by the next request with that key. Far above any
 * real request: a write waits at most the busy timeout for its lock.
 */
export const IN_FLIGHT_STALE_MS = 60_000;

export type IdempotencyScope = { credentialId: string; key: string };
export type StoredResponse = { status: number; headers: Record<string, string>; body: string };

/** What a request learns when it presents its key. `claimedAt` identifies its own claim. */
export type ClaimOutcome =
  { kind: 'claimed'; claimedAt: number } | { kind: 'replay'; response: StoredResponse } | { kind: 'in_flight' } | { kind: 'mismatch' };

/** What a key holds now, read without claiming it (see readIdempotencyKey). */
export type KeyState =
  | { kind: 'absent' }
  /** Expired, or in flight so long its request must have died: claim it to take it over. */
  | { kind: 'abandoned' }
  | Exclude<ClaimOutcome, { kind: 'claimed' }>;

type KeyRow = typeof idempotencyKeys.$inferSelect;

function judge(row: KeyRow, requestHash: string, now: number): Exclude<KeyState, { kind: 'absent' }> {
  const abandoned = row.expiresAt <= now || (row.state === 'in_flight' && row.createdAt <= now - IN_FLIGHT_STALE_MS);
  if (abandoned) return { kind: 'abandoned' };
  if (row.requestHash !== requestHash) return { kind: 'mismatch' };
  if (row.state === 'in_flight') return { kind: 'in_flight' };
  return {
    kind: 'replay',
    response: { status: row.responseStatus ?? 500, headers: row.responseHeaders ?? {}, body: row.responseBody ?? '' },
  };
}

/** sha256 over method, path and the exact body text: the request a key stands for. */
export function idempotencyRequestHash(method: string, path: string, bodyText: string): string {
  return hash('sha256', `${method.toUpperCase()}\n${path}\n${bodyText}`, 'hex');
}

/**
 * Claims a key atomically: the INSERT wins or it does not, in every instance sharing the
 * database. A losing request reads what the winner left: the stored answer, a claim still
 * in flight, or a key that stands for another request. An expired key, or a claim in
 * flight so long its request must have died, is taken over with a compare-and-set so that
 * two requests cannot both take it.
 */
export async function claimIdempotencyKey(
  database: DbOrTx,
  scope: IdempotencyScope & { method: string; path: string; requestHash: string },
  now = Date.now(),
): Promise<ClaimOutcome> {
  const fresh = {
    method: scope.method,
    path: scope.path,
    requestHash: scope.requestHash,
    state: 'in_flight' as const,
    responseStatus: null,
    responseHeaders: null,
    responseBody: null,
    createdAt: now,
    expiresAt: now + IDEMPOTENCY_TTL_MS,
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    const inserted = await prepared(database, 'idempotency.claim', claimQuery).run({
      credentialId: scope.credentialId,
      key: scope.key,
      method: scope.method,
      path: scope.path,
      requestHash: scope.requestHash,
      createdAt: fresh.createdAt,
      expiresAt: fresh.expiresAt,
    });
    if (inserted.rowsAffected > 0) return { kind: 'claimed', claimedAt: now };

    const [row] = await prepared(database, 'idempotency.read', readQuery).all({ credentialId: scope.credentialId, key: scope.key });
    if (!row) continue; // purged between the two statements: try the insert again

    const state = judge(row, scope.requestHash, now);
    if (state.kind === 'abandoned') {
      const taken = await database
        .update(idempotencyKeys)
        .set(fresh)
        .where(and(keyIs(scope), eq(idempotencyKeys.state, row.state), eq(idempotencyKeys.createdAt, row.createdAt)))
        .returning({ createdAt: idempotencyKeys.createdAt });
      if (taken.length > 0) return { kind: 'claimed', claimedAt: now };
      continue; // someone else took it over first: read again
    }
    return state;
  }
  // Three lost races in a row on one key is a storm of identical requests: the others are in flight.
  return { kind: 'in_flight' };
}

/** Stores the answer of the request that holds the claim; it is replayed from now on. */
export async function completeIdempotencyKey(
  database: DbOrTx,
  scope: IdempotencyScope & { claimedAt: number },
  response: StoredResponse,
): Promise<boolean> {
  const done = await prepared(database, 'idempotency.complete', completeQuery).run(completeValues(scope, response));
  return done.rowsAffected > 0;
}

/**
 * What the key holds, without writing: one indexed read. A request whose writes are
 * committed in one batch records its answer in that same batch (recordStatement) instead
 * of claiming the key beforehand, and reads this only when that batch meets the key.
 */
export async function readIdempotencyKey(
  database: DbOrTx,
  scope: IdempotencyScope & { requestHash: string },
  now = Date.now(),
): Promise<KeyState> {
  const [row] = await prepared(database, 'idempotency.read', readQuery).all({ credentialId: scope.credentialId, key: scope.key });
  return row ? judge(row, scope.requestHash, now) : { kind: 'absent' };
}

/**
 * A finished key with its answer, as a statement for the batch that commits the request's
 * own writes. A plain INSERT: if another request recorded the key first, it fails and the
 * whole batch — the request's writes too — is rolled back.
 */
export function recordStatement(
  database: DbOrTx,
  scope: IdempotencyScope & { method: string; path: string; requestHash: string },
  response: StoredResponse,
  now = Date.now(),
): Statement {
  return statementOf(prepared(database, 'idempotency.record', recordQuery), {
    credentialId: scope.credentialId,
    key: scope.key,
    method: scope.method,
    path: scope.path,
    requestHash: scope.requestHash,
    status: response.status,
    headers: response.headers,
    body: response.body,
    createdAt: now,
    expiresAt: now + IDEMPOTENCY_TTL_MS,
  });
}

/** completeIdempotencyKey as a statement, for the batch that commits the claiming request's writes. */
export function completeStatement(database: DbOrTx, scope: IdempotencyScope & { claimedAt: number }, response: StoredResponse): Statement {
  return statementOf(prepared(database, 'idempotency.complete', completeQuery), completeValues(scope, response));
}

function completeValues(scope: IdempotencyScope & { claimedAt: number }, response: StoredResponse) {
  return {
    credentialId: scope.credentialId,
    key: scope.key,
    claimedAt: scope.claimedAt,
    status: response.status,
    headers: JSON.stringify(response.headers),
    body: response.body,
  };
}

function readQuery(database: DbOrTx) {
  return database
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.credentialId, sql.placeholder('credentialId')), eq(idempotencyKeys.key, sql.placeholder('key'))))
    .prepare();
}

/** A new key row: claimed (in flight, no answer yet) or recorded (done, with its answer). */
function keyInsert(database: DbOrTx, state: 'in_flight' | 'done') {
  const answer = (name: string) => (state === 'done' ? sql.placeholder(name) : null);
  return database.insert(idempotencyKeys).values({
    credentialId: sql.placeholder('credentialId'),
    key: sql.placeholder('key'),
    method: sql.placeholder('method'),
    path: sql.placeholder('path'),
    requestHash: sql.placeholder('requestHash'),
    state,
    responseStatus: answer('status'),
    responseHeaders: answer('headers'),
    responseBody: answer('body'),
    createdAt: sql.placeholder('createdAt'),
    expiresAt: sql.placeholder('expiresAt'),
  });
}

// The statements every POST with a key runs are built once (see db/prepared.ts).
function recordQuery(database: DbOrTx) {
  return keyInsert(database, 'done').prepare();
}

function claimQuery(database: DbOrTx) {
  return keyInsert(database, 'in_flight').onConflictDoNothing().prepare();
}

function completeQuery(database: DbOrTx) {
  return (
    database
      .update(idempotencyKeys)
      // (Drizzle's update types take no placeholders; as SQL they pass unencoded, so the headers go in as JSON text.)
      .set({
        state: 'done',
        responseStatus: sql`${sql.placeholder('status')}`,
        responseHeaders: sql`${sql.placeholder('headers')}`,
        responseBody: sql`${sql.placeholder('body')}`,
      })
      .where(
        and(
          eq(idempotencyKeys.credentialId, sql.placeholder('credentialId')),
          eq(idempotencyKeys.key, sql.placeholder('key')),
          eq(idempotencyKeys.state, 'in_flight'),
          eq(idempotencyKeys.createdAt, sql.placeholder('claimedAt')),
        ),
      )
      .prepare()
  );
}

/** Gives a claim up (the request failed on our side), so a retry with the key runs afresh. */
export async function releaseIdempotencyKey(database: DbOrTx, scope: IdempotencyScope & { claimedAt: number }): Promise<void> {
  await database.delete(idempotencyKeys).where(ownClaim(scope));
}

/** Deletes up to `limit` expired keys (oldest first, by the expiry index). Cheap enough to run often. */
export async function purgeExpiredIdempotencyKeys(database: DbOrTx, now = Date.now(), limit = 500): Promise<number> {
  const expired = database
    .select({ rowid: sql`rowid` })
    .from(idempotencyKeys)
    .where(lte(idempotencyKeys.expiresAt, now))
    .orderBy(idempotencyKeys.expiresAt)
    .limit(limit);
  const deleted = await database
    .delete(idempotencyKeys)
    .where(inArray(sql`rowid`, expired))
    .returning({ key: idempotencyKeys.key });
  return deleted.length;
}

function keyIs(scope: IdempotencyScope) {
  return and(eq(idempotencyKeys.credentialId, scope.credentialId), eq(idempotencyKeys.key, scope.key));
}

function ownClaim(scope: IdempotencyScope & { claimedAt: number }) {
  return and(keyIs(scope), eq(idempotencyKeys.state, 'in_flight'), eq(idempotencyKeys.createdAt, scope.claimedAt));
}
