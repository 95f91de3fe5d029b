import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { expect, test } from '../support/contract';
import { auth, creds, expectProblem, V1 } from '../support/api';
import { copyDatabase, type Instance, killInstance, mainDatabaseUrl, rawClient, startInstance } from '../support/instances';
import { consent, freshEmail, NEWSLETTER, rowsFor, STOCK, variantIds } from '../support/signups';

// Several `next start` processes on one database file. They share the build and the e2e
// database of the Playwright webServer (or a consistent copy of it), on ports of their own.
test.describe.configure({ mode: 'serial', timeout: 180_000 });

const started: Instance[] = [];
const scratch = mkdtempSync(join(tmpdir(), 'sd-durability-'));
test.afterAll(async () => {
  await Promise.all(started.map(killInstance));
  rmSync(scratch, { recursive: true, force: true });
});

async function start(databaseUrl: string, env: Record<string, string> = {}) {
  const instance = await startInstance(databaseUrl, env);
  started.push(instance);
  return instance;
}

function postTo(request: APIRequestContext, base: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  return request.post(`${base}${V1}${path}`, {
    headers: auth(creds().core, { 'Content-Type': 'application/json', ...headers }),
    data: JSON.stringify(body),
    failOnStatusCode: false,
    timeout: 30_000,
  });
}

let variant: string | undefined;
async function stockBody(request: APIRequestContext, email = freshEmail()) {
  variant ??= (await variantIds(request, 'aurora-wool-throw'))[0]!;
  return { variantId: variant, email, consent };
}

test('two instances on one database file agree on an Idempotency-Key', async ({ request, baseURL }) => {
  const a = baseURL!;
  const b = (await start(mainDatabaseUrl())).baseURL;
  for (const [first, second] of [
    [a, b],
    [b, a],
  ] as const) {
    const key = `two-instances-${randomBytes(8).toString('hex')}`;
    const body = await stockBody(request);
    const original = await postTo(request, first, STOCK, body, { 'Idempotency-Key': key });
    expect(original.status(), await original.text()).toBe(202);
    expect(original.headers()['idempotent-replayed']).toBeUndefined();

    const replay = await postTo(request, second, STOCK, body, { 'Idempotency-Key': key });
    expect(replay.status()).toBe(202);
    expect(replay.headers()['idempotent-replayed']).toBe('true');
    expect(await replay.text()).toBe(await original.text());

    await expectProblem(
      await postTo(request, second, STOCK, { ...body, email: freshEmail() }, { 'Idempotency-Key': key }),
      422,
      'idempotency_key_reused',
    );
  }
  // And 16 concurrent requests with one key, spread over both instances: one runs.
  const key = `two-instances-burst-${randomBytes(8).toString('hex')}`;
  const body = await stockBody(request);
  const answers = await Promise.all(
    Array.from({ length: 16 }, (_, i) => postTo(request, i % 2 ? a : b, STOCK, body, { 'Idempotency-Key': key })),
  );
  const statuses = answers.map((r) => `${r.status()}${r.headers()['idempotent-replayed'] ? '-replay' : ''}`);
  expect(statuses.filter((s) => s === '202')).toHaveLength(1);
  expect(
    statuses.every((s) => ['202', '202-replay', '409'].includes(s)),
    statuses.join(),
  ).toBe(true);
  const database = rawClient(mainDatabaseUrl());
  try {
    expect(await rowsFor(database, body.email)).toEqual({ stock: 1, newsletter: 0, consents: 1, outbox: 1 });
  } finally {
    database.close();
  }
});

test('a signup acknowledged with 202 survives kill -9 of the server right after', async ({ request }) => {
  const url = await copyDatabase(mainDatabaseUrl(), join(scratch, 'killed.db'));
  const server = await start(url);
  const stock = await stockBody(request, freshEmail('killed'));
  const key = `killed-${randomBytes(8).toString('hex')}`;
  const newsletterEmail = freshEmail('killed-nl');

  const acked = await postTo(request, server.baseURL, STOCK, stock, { 'Idempotency-Key': key });
  expect(acked.status(), await acked.text()).toBe(202);
  const ackedNewsletter = await postTo(request, server.baseURL, NEWSLETTER, { email: newsletterEmail, consent });
  expect(ackedNewsletter.status()).toBe(202);
  await killInstance(server); // SIGKILL, straight after the acknowledgement
  expect(server.child.signalCode).toBe('SIGKILL');
  // The commits are in the write-ahead log, not yet checkpointed into the database file.
  expect(statSync(join(scratch, 'killed.db-wal')).size).toBeGreaterThan(0);

  const restarted = await start(url);
  const replay = await postTo(request, restarted.baseURL, STOCK, stock, { 'Idempotency-Key': key });
  expect([replay.status(), replay.headers()['idempotent-replayed']]).toEqual([202, 'true']);

  const database = rawClient(url);
  try {
    expect(await rowsFor(database, stock.email)).toEqual({ stock: 1, newsletter: 0, consents: 1, outbox: 1 });
    expect(await rowsFor(database, newsletterEmail)).toEqual({ stock: 0, newsletter: 1, consents: 1, outbox: 1 });
    const row = await database.execute({ sql: 'SELECT status FROM stock_subscriptions WHERE email = ?', args: [stock.email] });
    expect(row.rows[0]!.status).toBe('pending_confirmation');
  } finally {
    database.close();
  }
});

test('a locked database answers 503 service_unavailable with Retry-After, never a 500, and recovers when the lock goes', async ({
  request,
}) => {
  const url = await copyDatabase(mainDatabaseUrl(), join(scratch, 'locked.db'));
  const server = await start(url, { DATABASE_BUSY_TIMEOUT_MS: '300' });
  // Another process takes the write lock and keeps it far longer than the busy timeout.
  const other = rawClient(url);
  const lock = await other.transaction('write'); // BEGIN IMMEDIATE
  const email = freshEmail('locked');
  try {
    const attempts: Record<string, string>[] = [{}, { 'Idempotency-Key': `locked-${randomBytes(8).toString('hex')}` }];
    for (const headers of attempts) {
      const started = Date.now();
      const res = await postTo(request, server.baseURL, STOCK, await stockBody(request, email), headers);
      await expectProblem(res, 503, 'service_unavailable');
      expect(Number(res.headers()['retry-after'])).toBeGreaterThan(0);
      expect(Date.now() - started).toBeLessThan(10_000);
    }
    // A read is never a 500 either (it may be a 503: the rate limiter counts reads in the database too).
    const read = await request.get(`${server.baseURL}${V1}/commerce/products/aurora-wool-throw`, {
      headers: auth(creds().core),
      failOnStatusCode: false,
    });
    if (read.status() !== 200) await expectProblem(read, 503, 'service_unavailable');
  } finally {
    await lock.rollback();
    other.close();
  }
  // The 503s kept nothing: the same requests now go through, again and again.
  for (let i = 0; i < 4; i++) {
    const res = await postTo(request, server.baseURL, STOCK, await stockBody(request, i === 0 ? email : freshEmail('after-lock')));
    expect(res.status(), await res.text()).toBe(202);
  }
  const database = rawClient(url);
  try {
    expect(await rowsFor(database, email)).toEqual({ stock: 1, newsletter: 0, consents: 1, outbox: 1 });
  } finally {
    database.close();
  }
});
