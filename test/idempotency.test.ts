import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { execute, type Database } from '@/db';
import { idempotencyKeys } from '@/db/schema';
import { DomainError } from '@/lib/platform/errors';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  IDEMPOTENCY_TTL_MS,
  idempotencyRequestHash,
  IN_FLIGHT_STALE_MS,
  purgeExpiredIdempotencyKeys,
  releaseIdempotencyKey,
} from '@/lib/platform/idempotency/store';
import { answerOf, commitDeferred, runIdempotent, type IdempotencyInput, type IdempotentRun } from '@/lib/platform/idempotency/http';
import { bodyTextOf } from '@/lib/http/body-text';
import { freshDatabase } from './support/database';

// lib/http is server-only; this test is the server.
vi.mock('server-only', () => ({}));

let database: Database;
let n = 0;
const uniqueKey = () => `key-${++n}-${Math.random().toString(36).slice(2)}`;

beforeAll(async () => {
  ({ database } = await freshDatabase({ seed: false }));
});

describe('the key record', () => {
  const scope = (key: string, body = '{"a":1}') => ({
    credentialId: 'cred_a',
    key,
    method: 'POST',
    path: '/site/v1/x',
    requestHash: idempotencyRequestHash('POST', '/site/v1/x', body),
  });

  it('is claimed once; then it is in flight, or another request, until its answer is stored and replayed', async () => {
    const key = uniqueKey();
    const t0 = 1_800_000_000_000;
    expect(await claimIdempotencyKey(database, scope(key), t0)).toEqual({ kind: 'claimed', claimedAt: t0 });
    expect(await claimIdempotencyKey(database, scope(key), t0 + 5)).toEqual({ kind: 'in_flight' });
    expect(await claimIdempotencyKey(database, scope(key, '{"a":2}'), t0 + 5)).toEqual({ kind: 'mismatch' });
    const onAnotherPath = { ...scope(key), path: '/site/v1/y', requestHash: idempotencyRequestHash('POST', '/site/v1/y', '{"a":1}') };
    expect(await claimIdempotencyKey(database, onAnotherPath, t0 + 5)).toEqual({ kind: 'mismatch' });

    const stored = { status: 201, headers: { location: '/x/1', 'content-type': 'application/json' }, body: '{"id":1}' };
    expect(await completeIdempotencyKey(database, { credentialId: 'cred_a', key, claimedAt: t0 }, stored)).toBe(true);
    expect(await claimIdempotencyKey(database, scope(key), t0 + 10)).toEqual({ kind: 'replay', response: stored });
    expect(await claimIdempotencyKey(database, scope(key, '{"a":2}'), t0 + 10)).toEqual({ kind: 'mismatch' });
  });

  it('is per credential', async () => {
    const key = uniqueKey();
    expect((await claimIdempotencyKey(database, scope(key))).kind).toBe('claimed');
    expect((await claimIdempotencyKey(database, { ...scope(key), credentialId: 'cred_b' })).kind).toBe('claimed');
  });

  it('is as good as new once expired (24 h), and is taken over by exactly one request', async () => {
    const key = uniqueKey();
    const t0 = 1_800_000_000_000;
    await claimIdempotencyKey(database, scope(key), t0);
    await completeIdempotencyKey(database, { credentialId: 'cred_a', key, claimedAt: t0 }, { status: 202, headers: {}, body: '{}' });
    expect((await claimIdempotencyKey(database, scope(key, 'other'), t0 + IDEMPOTENCY_TTL_MS - 1)).kind).toBe('mismatch');
    const later = t0 + IDEMPOTENCY_TTL_MS;
    const claims = await Promise.all([1, 2, 3].map(() => claimIdempotencyKey(database, scope(key, 'other'), later)));
    expect(claims.map((c) => c.kind).sort()).toEqual(['claimed', 'in_flight', 'in_flight']);
  });

  it('left in flight by a request that died is taken over once it is stale; the dead request can no longer store into it', async () => {
    const key = uniqueKey();
    const t0 = 1_800_000_000_000;
    await claimIdempotencyKey(database, scope(key), t0);
    expect((await claimIdempotencyKey(database, scope(key), t0 + IN_FLIGHT_STALE_MS - 1)).kind).toBe('in_flight');
    const takeover = await claimIdempotencyKey(database, scope(key), t0 + IN_FLIGHT_STALE_MS);
    expect(takeover).toEqual({ kind: 'claimed', claimedAt: t0 + IN_FLIGHT_STALE_MS });
    expect(
      await completeIdempotencyKey(database, { credentialId: 'cred_a', key, claimedAt: t0 }, { status: 500, headers: {}, body: '' }),
    ).toBe(false);
    await releaseIdempotencyKey(database, { credentialId: 'cred_a', key, claimedAt: t0 }); // not its claim any more: a no-op
    expect((await claimIdempotencyKey(database, scope(key), t0 + IN_FLIGHT_STALE_MS + 1)).kind).toBe('in_flight');
  });

  it('purges expired keys only', async () => {
    const now = 1_900_000_000_000;
    const [old, live] = [uniqueKey(), uniqueKey()];
    await claimIdempotencyKey(database, scope(old), now - IDEMPOTENCY_TTL_MS - 1);
    await claimIdempotencyKey(database, scope(live), now - 1000);
    expect(await purgeExpiredIdempotencyKeys(database, now)).toBeGreaterThanOrEqual(1);
    const left = await database
      .select({ key: idempotencyKeys.key })
      .from(idempotencyKeys)
      .where(eq(idempotencyKeys.credentialId, 'cred_a'));
    expect(left.map((r) => r.key)).toContain(live);
    expect(left.map((r) => r.key)).not.toContain(old);
  });
});

describe('runIdempotent', () => {
  const input = (key: string | null, over: Partial<IdempotencyInput> = {}): IdempotencyInput => ({
    credentialId: 'cred_run',
    key,
    method: 'POST',
    path: '/site/v1/commerce/checkout-sessions',
    bodyText: '{"lines":[]}',
    ...over,
  });
  const base = (requestId: string) => ({ 'X-Request-Id': requestId, Vary: 'Authorization' });
  const counter = (status: number, headers: Record<string, string> = {}) => {
    let calls = 0;
    const run = async () => {
      calls += 1;
      return new Response(JSON.stringify({ call: calls }), {
        status,
        headers: { 'Content-Type': 'application/json', 'X-Request-Id': 'req-first', ...headers },
      });
    };
    return { run, calls: () => calls };
  };

  it('without a key simply runs, every time', async () => {
    const c = counter(201);
    await runIdempotent(database, input(null), c.run, base('r1'));
    await runIdempotent(database, input(null), c.run, base('r2'));
    expect(c.calls()).toBe(2);
  });

  it('replays the first status, body and answer headers with Idempotent-Replayed, and does nothing again', async () => {
    const key = uniqueKey();
    const c = counter(201, { Location: '/site/v1/commerce/checkout-sessions/cs_1', ETag: '"v1"' });
    const first = await runIdempotent(database, input(key), c.run, base('r1'));
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(await first.text()).toBe('{"call":1}');

    const again = await runIdempotent(database, input(key), c.run, base('r2'));
    expect(c.calls()).toBe(1);
    expect(again.status).toBe(201);
    expect(await again.text()).toBe('{"call":1}');
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('location')).toBe('/site/v1/commerce/checkout-sessions/cs_1');
    expect(again.headers.get('etag')).toBe('"v1"');
    expect(again.headers.get('content-type')).toBe('application/json');
    expect(again.headers.get('x-request-id')).toBe('r2'); // the replay is its own request
  });

  it('refuses the same key with another body (422) or on another path', async () => {
    const key = uniqueKey();
    const c = counter(202);
    await runIdempotent(database, input(key), c.run, base('r1'));
    await expect(runIdempotent(database, input(key, { bodyText: '{"lines":[1]}' }), c.run, base('r2'))).rejects.toMatchObject({
      code: 'idempotency_key_reused',
    });
    await expect(
      runIdempotent(database, input(key, { path: '/site/v1/newsletter/subscriptions' }), c.run, base('r3')),
    ).rejects.toMatchObject({ code: 'idempotency_key_reused' });
    expect(c.calls()).toBe(1);
  });

  it('stores a 4xx answer (the retry gets the same answer) but releases the key after a 5xx or a throw', async () => {
    const k404 = uniqueKey();
    const notFound = counter(404);
    await runIdempotent(database, input(k404), notFound.run, base('r1'));
    const replayed = await runIdempotent(database, input(k404), notFound.run, base('r2'));
    expect([replayed.status, replayed.headers.get('idempotent-replayed'), notFound.calls()]).toEqual([404, 'true', 1]);

    const k503 = uniqueKey();
    const busy = counter(503);
    await runIdempotent(database, input(k503), busy.run, base('r1'));
    const retried = await runIdempotent(database, input(k503), busy.run, base('r2'));
    expect([retried.headers.get('idempotent-replayed'), busy.calls()]).toEqual([null, 2]);

    const kThrow = uniqueKey();
    await expect(
      runIdempotent(
        database,
        input(kThrow),
        async () => {
          throw new Error('boom');
        },
        base('r1'),
      ),
    ).rejects.toThrow('boom');
    const ok = counter(201);
    expect((await runIdempotent(database, input(kThrow), ok.run, base('r2'))).status).toBe(201);
  });

  it('answers 409 idempotency_key_in_use while the first request runs, and exactly one of 16 concurrent requests runs', async () => {
    const key = uniqueKey();
    let calls = 0;
    const slow = async () => {
      calls += 1;
      await new Promise((r) => setTimeout(r, 100));
      return new Response('{"ok":true}', { status: 201, headers: { 'Content-Type': 'application/json' } });
    };
    const outcomes = await Promise.allSettled(
      Array.from({ length: 16 }, (_, i) => runIdempotent(database, input(key), slow, base(`r${i}`))),
    );
    expect(calls).toBe(1);
    const fulfilled = outcomes.filter((o): o is PromiseFulfilledResult<Response> => o.status === 'fulfilled');
    const rejected = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(fulfilled).toHaveLength(1);
    expect(fulfilled[0]!.value.status).toBe(201);
    expect(rejected).toHaveLength(15);
    for (const r of rejected) {
      expect(r.reason).toBeInstanceOf(DomainError);
      expect(r.reason).toMatchObject({ code: 'idempotency_key_in_use', options: { headers: { 'Retry-After': '1' } } });
    }
    const after = await runIdempotent(database, input(key), slow, base('late'));
    expect([after.status, after.headers.get('idempotent-replayed'), calls]).toEqual([201, 'true', 1]);
  });

  it.each([
    ['empty', ''],
    ['256 characters', 'k'.repeat(256)],
    ['non-ASCII', 'nyckel-å'],
    ['a control character', 'a\tb'],
  ])('refuses a key that is %s with validation_failed at #/header/Idempotency-Key', async (_, key) => {
    const c = counter(201);
    await expect(runIdempotent(database, input(key), c.run, base('r'))).rejects.toMatchObject({
      code: 'validation_failed',
      options: { errors: [{ pointer: '#/header/Idempotency-Key' }] },
    });
    expect(c.calls()).toBe(0);
  });

  it('takes 255 printable ASCII characters, spaces and symbols included', async () => {
    const key = `${'k'.repeat(250)} !~"}`;
    const c = counter(202);
    await runIdempotent(database, input(key), c.run, base('r1'));
    await runIdempotent(database, input(key), c.run, base('r2'));
    expect(c.calls()).toBe(1);
  });
});

describe('runIdempotent with deferred writes (the work and the answer in one batch)', () => {
  const input = (key: string | null, body = '{"lines":[1]}'): IdempotencyInput => ({
    credentialId: 'cred_deferred',
    key,
    method: 'POST',
    path: '/site/v1/commerce/checkout-sessions',
    bodyText: body,
  });
  const base = { 'X-Request-Id': 'r', Vary: 'Authorization' };
  const deferred = { deferredWrites: true };

  beforeAll(async () => {
    await execute(database, 'CREATE TABLE IF NOT EXISTS deferred_work (id TEXT PRIMARY KEY, key TEXT)');
  });
  const workFor = async (key: string) =>
    (await execute(database, { sql: 'SELECT id FROM deferred_work WHERE key = ?', args: [key] })).rows.length;
  const stored = async (key: string) => (await database.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key)))[0];

  /** What the route wrapper does: build the answer, then commit the work with the record of it. */
  const handler = (key: string | null, status = 201, options: { delayMs?: number; writeId?: () => string } = {}) => {
    let calls = 0;
    const run: IdempotentRun = async (record) => {
      calls += 1;
      const id = options.writeId?.() ?? `w-${calls}-${Math.random().toString(36).slice(2)}`;
      if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
      const text = JSON.stringify({ id });
      const response = new Response(text, { status, headers: { 'Content-Type': 'application/json', Location: `/x/${id}` } });
      bodyTextOf.set(response, text);
      if (status < 400) {
        const work = [{ sql: 'INSERT INTO deferred_work (id, key) VALUES (?, ?)', args: [id, key] }];
        await commitDeferred(database, work, record ? record(await answerOf(response)) : null);
      }
      return response;
    };
    return { run, calls: () => calls };
  };

  it('writes the work and the answer together, once; a retry replays the answer and commits nothing again', async () => {
    const key = uniqueKey();
    const h = handler(key);
    const first = await runIdempotent(database, input(key), h.run, base, deferred);
    expect(first.status).toBe(201);
    const body = await first.text();
    expect(await workFor(key)).toBe(1);
    expect(await stored(key)).toMatchObject({
      state: 'done',
      responseStatus: 201,
      responseBody: body,
      responseHeaders: { location: first.headers.get('location') },
    });

    const again = await runIdempotent(database, input(key), h.run, base, deferred);
    // The key is read only when storing the answer meets it: the retry computes, its batch fails whole.
    expect([again.status, await again.text(), again.headers.get('idempotent-replayed'), h.calls(), await workFor(key)]).toEqual([
      201,
      body,
      'true',
      2,
      1,
    ]);
    await expect(runIdempotent(database, input(key, '{"lines":[2]}'), h.run, base, deferred)).rejects.toMatchObject({
      code: 'idempotency_key_reused',
    });
  });

  it('16 concurrent requests with one key: the work is committed once and every caller gets that one answer', async () => {
    const key = uniqueKey();
    const h = handler(key, 201, { delayMs: 20 });
    const answers = await Promise.all(Array.from({ length: 16 }, () => runIdempotent(database, input(key), h.run, base, deferred)));
    expect(await workFor(key)).toBe(1);
    const bodies = new Set(await Promise.all(answers.map((a) => a.text())));
    expect(bodies.size).toBe(1);
    expect(answers.every((a) => a.status === 201)).toBe(true);
    expect(answers.filter((a) => a.headers.get('idempotent-replayed') === null)).toHaveLength(1);
  });

  it('without a key commits the work every time', async () => {
    const key = uniqueKey();
    const h = handler(key);
    await runIdempotent(database, input(null), h.run, base, deferred);
    await runIdempotent(database, input(null), h.run, base, deferred);
    expect(await workFor(key)).toBe(2);
    expect(await stored(key)).toBeUndefined();
  });

  it('stores a 4xx answer that wrote nothing, and replays it', async () => {
    const key = uniqueKey();
    const h = handler(key, 409);
    await runIdempotent(database, input(key), h.run, base, deferred);
    const again = await runIdempotent(database, input(key), h.run, base, deferred);
    expect([again.status, again.headers.get('idempotent-replayed'), await stored(key)]).toEqual([
      409,
      'true',
      expect.objectContaining({ responseStatus: 409 }),
    ]);
  });

  it('a retry that fails (5xx) still replays the answer its key holds; a new key gets the failure', async () => {
    const key = uniqueKey();
    const first = await runIdempotent(database, input(key), handler(key).run, base, deferred);
    const body = await first.text();
    const failing = handler(key, 503);
    const again = await runIdempotent(database, input(key), failing.run, base, deferred);
    expect([again.status, await again.text(), again.headers.get('idempotent-replayed'), await workFor(key)]).toEqual([
      201,
      body,
      'true',
      1,
    ]);
    await expect(runIdempotent(database, input(key, '{"lines":[2]}'), failing.run, base, deferred)).rejects.toMatchObject({
      code: 'idempotency_key_reused',
    });
    const fresh = uniqueKey();
    const failed = await runIdempotent(database, input(fresh), handler(fresh, 503).run, base, deferred);
    expect([failed.status, failed.headers.get('idempotent-replayed'), await stored(fresh)]).toEqual([503, null, undefined]);
  });

  it('a batch that fails on its own work writes nothing and keeps nothing: the retry runs again', async () => {
    const key = uniqueKey();
    const clash = `clash-${key}`;
    await execute(database, { sql: 'INSERT INTO deferred_work (id, key) VALUES (?, ?)', args: [clash, 'other'] });
    const failing = handler(key, 201, { writeId: () => clash });
    await expect(runIdempotent(database, input(key), failing.run, base, deferred)).rejects.toThrow(/UNIQUE|constraint/i);
    expect(await stored(key)).toBeUndefined();
    const ok = handler(key);
    expect((await runIdempotent(database, input(key), ok.run, base, deferred)).status).toBe(201);
    expect(await workFor(key)).toBe(1);
  });

  it('an expired key is taken over: the work and the completed answer are again one batch', async () => {
    const key = uniqueKey();
    const scope = {
      credentialId: 'cred_deferred',
      key,
      method: 'POST',
      path: '/site/v1/commerce/checkout-sessions',
      requestHash: idempotencyRequestHash('POST', '/site/v1/commerce/checkout-sessions', 'old'),
    };
    const long = Date.now() - IDEMPOTENCY_TTL_MS - 1;
    await claimIdempotencyKey(database, scope, long);
    await completeIdempotencyKey(
      database,
      { credentialId: 'cred_deferred', key, claimedAt: long },
      { status: 201, headers: {}, body: '{"old":true}' },
    );
    const h = handler(key);
    const fresh = await runIdempotent(database, input(key), h.run, base, deferred);
    const body = await fresh.text();
    expect([fresh.status, fresh.headers.get('idempotent-replayed'), await workFor(key)]).toEqual([201, null, 1]);
    expect(await stored(key)).toMatchObject({ state: 'done', responseBody: body });
  });
});
