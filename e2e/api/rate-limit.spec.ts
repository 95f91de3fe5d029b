import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { expect, test } from '../support/contract';
import { AnalyticsReceipt } from '@/lib/contract/analytics';
import { auth, creds, expectProblem, get, V1 } from '../support/api';
import { mainDatabaseUrl, rawClient } from '../support/instances';

// A second server on the same build with tiny budgets, on its own copy of the e2e database.
const PORT = Number(process.env.E2E_LIMITS_PORT || 3502);
const SMALL = `http://127.0.0.1:${PORT}`;
const READS = 5;
const WRITES = 4;
const READS_PER_SHOPPER = 3;
const WRITES_PER_SHOPPER = 2;
// An hour-long window, so a run never straddles a reset (and the test checks `t` anyway).
const WINDOW = 3600;

test.describe.configure({ mode: 'serial' });

let server: ChildProcess | undefined;
let copyDir = '';
// What the server printed: attached to a test that fails, since its cause is often only there.
let log = '';

test.beforeAll(async () => {
  test.setTimeout(90_000);
  copyDir = mkdtempSync(join(tmpdir(), 'sd-limits-'));
  const source = rawClient(mainDatabaseUrl());
  // VACUUM INTO copies a consistent snapshot, WAL included; the credentials of the main run work on it.
  // The copy is in rollback-journal mode until the server opens it (db/driver/local-client.ts, ensureWal).
  await source.execute({ sql: 'VACUUM INTO ?', args: [join(copyDir, 'site.db')] });
  source.close();
  // The main server's counters could share a window start with this server's windows.
  const copy = rawClient(`file:${join(copyDir, 'site.db')}`);
  await copy.execute('DELETE FROM rate_limit_counters');
  copy.close();
  server = spawn(process.execPath, [join('node_modules', 'next', 'dist', 'bin', 'next'), 'start', '-p', String(PORT), '-H', '127.0.0.1'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      NEXT_TELEMETRY_DISABLED: '1',
      DATABASE_URL: `file:${join(copyDir, 'site.db')}`,
      RATE_LIMIT_READS: String(READS),
      RATE_LIMIT_WRITES: String(WRITES),
      RATE_LIMIT_READS_PER_SHOPPER: String(READS_PER_SHOPPER),
      RATE_LIMIT_WRITES_PER_SHOPPER: String(WRITES_PER_SHOPPER),
      RATE_LIMIT_WINDOW_SECONDS: String(WINDOW),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group, so afterAll stops whatever it forks
  });
  server.stdout!.on('data', (d: Buffer) => (log += d.toString()));
  server.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    const up = await fetch(`${SMALL}/site/v1/openapi.json`, { signal: AbortSignal.timeout(2_000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline || server.exitCode !== null) throw new Error(`the limits server on port ${PORT} did not start:\n${log}`);
    await new Promise((r) => setTimeout(r, 300));
  }
});

test.afterEach(async ({}, testInfo) => {
  if (testInfo.status !== testInfo.expectedStatus) await testInfo.attach('limits server log', { body: log, contentType: 'text/plain' });
});

test.afterAll(async () => {
  const child = server;
  if (child?.pid && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    try {
      process.kill(-child.pid, 'SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
    } catch {
      // already gone
    }
  }
  if (copyDir) rmSync(copyDir, { recursive: true, force: true });
});

function parseRateLimit(value: string | undefined) {
  const match = /^"([\w-]+)";r=(\d+);t=(\d+)$/.exec(value ?? '');
  expect(match, `RateLimit: ${value}`).not.toBeNull();
  return { policy: match![1]!, remaining: Number(match![2]), reset: Number(match![3]) };
}

/** Waits out the last seconds of a window, so the counting below happens inside one. */
async function inOneWindow(request: APIRequestContext) {
  const res = await request.get(`${SMALL}${V1}/openapi.json`);
  expect(res.ok()).toBe(true);
  const secondsLeft = WINDOW - (Math.floor(Date.now() / 1000) % WINDOW);
  if (secondsLeft < 15) await new Promise((r) => setTimeout(r, (secondsLeft + 1) * 1000));
}

/** get()/post() of e2e/support/api, against the small-budget server. */
function smallGet(request: APIRequestContext, path: string, token: string, headers: Record<string, string> = {}) {
  return request.get(`${SMALL}${V1}${path}`, { headers: auth(token, headers), failOnStatusCode: false });
}
function smallPost(request: APIRequestContext, path: string, data: unknown, token: string, headers: Record<string, string> = {}) {
  return request.post(`${SMALL}${V1}${path}`, {
    headers: auth(token, { 'Content-Type': 'application/json', ...headers }),
    data: JSON.stringify(data),
    failOnStatusCode: false,
  });
}

const event = () => ({ type: 'page_view', occurredAt: new Date().toISOString(), anonymousId: `rl_${Date.now()}` });

test('the read budget answers 429 rate_limited with Retry-After past it; writes keep their own budget', async ({ request }) => {
  await inOneWindow(request);
  const token = creds().extended;
  for (let i = 1; i <= READS; i++) {
    const res = await smallGet(request, '/site', token);
    expect(res.status(), await res.text()).toBe(200);
    expect(res.headers()['ratelimit-policy']).toBe(`"reads";q=${READS};w=${WINDOW}`);
    const limit = parseRateLimit(res.headers().ratelimit);
    expect(limit).toMatchObject({ policy: 'reads', remaining: READS - i });
    expect(limit.reset).toBeGreaterThan(0);
    expect(limit.reset).toBeLessThanOrEqual(WINDOW);
  }
  const refused = await smallGet(request, `/site`, token);
  const problem = await expectProblem(refused, 429, 'rate_limited');
  expect(problem.detail).not.toContain(token);
  const retryAfter = Number(refused.headers()['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(WINDOW);
  expect(refused.headers()['ratelimit-policy']).toBe(`"reads";q=${READS};w=${WINDOW}`);
  expect(parseRateLimit(refused.headers().ratelimit)).toMatchObject({ policy: 'reads', remaining: 0 });
  expect(Math.abs(parseRateLimit(refused.headers().ratelimit).reset - retryAfter)).toBeLessThanOrEqual(1);
  // Another read path is the same budget.
  await expectProblem(await smallGet(request, `/commerce/products?limit=1`, token), 429, 'rate_limited');

  // Writes are counted apart from reads.
  const write = await smallPost(request, `/analytics/events`, { events: [event()] }, token);
  expect(write.status(), await write.text()).toBe(202);
  AnalyticsReceipt.parse(await write.json());
  expect(write.headers()['ratelimit-policy']).toBe(`"writes";q=${WRITES};w=${WINDOW}`);
  expect(parseRateLimit(write.headers().ratelimit)).toMatchObject({ policy: 'writes', remaining: WRITES - 1 });
  for (let i = 2; i <= WRITES; i++)
    expect((await smallPost(request, `/analytics/events`, { events: [event()] }, token)).status()).toBe(202);
  await expectProblem(await smallPost(request, `/analytics/events`, { events: [event()] }, token), 429, 'rate_limited');

  // Another credential of the same Site has budgets of its own.
  expect((await smallGet(request, `/site`, creds().core)).status()).toBe(200);
});

test("Site-Buyer-IP adds a shopper budget to the credential's, never replaces it: rotating addresses gains nothing", async ({
  request,
}) => {
  await inOneWindow(request);
  const token = creds().outletExtended;
  const send = (ip?: string) => smallPost(request, `/analytics/events`, { events: [event()] }, token, ip ? { 'Site-Buyer-IP': ip } : {});
  for (let i = 1; i <= WRITES_PER_SHOPPER; i++) {
    const res = await send('203.0.113.9');
    expect(res.status(), await res.text()).toBe(202);
    // The tighter budget is the one reported: this shopper's.
    expect(res.headers()['ratelimit-policy']).toBe(`"shopper-writes";q=${WRITES_PER_SHOPPER};w=${WINDOW}`);
    expect(parseRateLimit(res.headers().ratelimit)).toMatchObject({ policy: 'shopper-writes', remaining: WRITES_PER_SHOPPER - i });
  }
  const shopperRefused = await send('203.0.113.9');
  const problem = await expectProblem(shopperRefused, 429, 'rate_limited');
  expect(problem.detail).toMatch(/^This shopper's writes budget/);
  expect(Number(shopperRefused.headers()['retry-after'])).toBeGreaterThan(0);

  // Sixty other addresses, and values that are not addresses at all: together they get only
  // what is left of the credential's budget (a refused shopper above cost it nothing).
  const rotated = [
    ...Array.from({ length: 50 }, (_, i) => `198.51.100.${i + 1}`),
    ...Array.from({ length: 5 }, (_, i) => `2001:db8:${i + 1}::7`),
    'abcd',
    '1234',
    '::::',
    'dead:beef',
    '127.0.0.1, 10.0.0.1',
  ];
  let accepted = 0;
  for (const ip of rotated) {
    const res = await send(ip);
    if (res.status() === 202) accepted += 1;
    else await expectProblem(res, 429, 'rate_limited');
  }
  expect(accepted).toBe(WRITES - WRITES_PER_SHOPPER);
  await expectProblem(await send(), 429, 'rate_limited');

  const copy = rawClient(`file:${join(copyDir, 'site.db')}`);
  const counters = JSON.stringify((await copy.execute('SELECT * FROM rate_limit_counters')).rows);
  copy.close();
  expect(counters.length).toBeGreaterThan(2);
  expect(counters).not.toMatch(/203\.0\.113\.9|198\.51\.100|2001:db8/);
});

test('reads naming a shopper are charged to the shopper and to the credential', async ({ request }) => {
  await inOneWindow(request);
  const token = creds().outletCore;
  const read = (ip: string) => smallGet(request, '/site', token, { 'Site-Buyer-IP': ip });
  for (let i = 1; i <= READS_PER_SHOPPER; i++) expect((await read('203.0.113.9')).status()).toBe(200);
  const refused = await read('203.0.113.9');
  expect((await expectProblem(refused, 429, 'rate_limited')).detail).toMatch(/^This shopper's reads budget/);
  // Another shopper still reads, from what is left of the credential's budget, and no further.
  for (let i = READS_PER_SHOPPER + 1; i <= READS; i++) expect((await read(`198.51.100.${i}`)).status()).toBe(200);
  expect((await expectProblem(await read('198.51.100.99'), 429, 'rate_limited')).detail).toMatch(/^This credential's reads budget/);
});

test('a signup naming a shopper claims the shopper’s write budget in its own write: past it 429, and nothing of it stays', async ({
  request,
}) => {
  await inOneWindow(request);
  // Its reads are spent (the test above); its writes are all still there.
  const token = creds().outletCore;
  const stamp = Date.now();
  const signup = (email: string, ip: string) =>
    smallPost(
      request,
      '/newsletter/subscriptions',
      { email, consent: { granted: true, text: 'Yes, send me the newsletter.', version: '2026-01' }, source: 'footer' },
      token,
      { 'Site-Buyer-IP': ip },
    );
  for (let i = 1; i <= WRITES_PER_SHOPPER; i++) {
    const res = await signup(`limits.${stamp}.${i}@example.se`, '203.0.113.21');
    expect(res.status(), await res.text()).toBe(202);
    expect(parseRateLimit(res.headers().ratelimit)).toMatchObject({ policy: 'shopper-writes', remaining: WRITES_PER_SHOPPER - i });
  }
  const held = `limits.${stamp}.held@example.se`;
  const refused = await signup(held, '203.0.113.21');
  expect((await expectProblem(refused, 429, 'rate_limited')).detail).toMatch(/^This shopper's writes budget/);
  expect(Number(refused.headers()['retry-after'])).toBeGreaterThan(0);
  expect(parseRateLimit(refused.headers().ratelimit)).toMatchObject({ policy: 'shopper-writes', remaining: 0 });
  const copy = rawClient(`file:${join(copyDir, 'site.db')}`);
  const stored = await copy.execute({
    sql: 'SELECT (SELECT count(*) FROM consents WHERE email = ?) + (SELECT count(*) FROM newsletter_subscriptions WHERE email = ?) AS n',
    args: [held, held],
  });
  copy.close();
  expect(Number(stored.rows[0]!.n)).toBe(0);

  // A signup that fails before its write still counts against its shopper; the refused one
  // above cost the credential nothing, so another shopper gets what is left of it.
  await expectProblem(await signup('not an address', '203.0.113.22'), 422, 'validation_failed');
  expect((await signup(`limits.${stamp}.other@example.se`, '203.0.113.22')).status()).toBe(202);
  expect(WRITES).toBe(WRITES_PER_SHOPPER + 2);
  expect((await expectProblem(await signup(`limits.${stamp}.late@example.se`, '203.0.113.23'), 429, 'rate_limited')).detail).toMatch(
    /^This credential's writes budget/,
  );
});

test('anonymous checkout sessions are writes: however many shoppers are named, at most the write budget is created', async ({
  request,
}) => {
  await inOneWindow(request);
  const copy = rawClient(`file:${join(copyDir, 'site.db')}`);
  const variant = await copy.execute(
    `SELECT v.id FROM product_variants v JOIN products p ON p.id = v.product_id JOIN sites s ON s.id = p.site_id
     WHERE s.handle = 'demo' AND p.handle = 'linen-tote-bag' ORDER BY v.position LIMIT 1`,
  );
  const count = async () => Number((await copy.execute('SELECT count(*) AS n FROM checkout_sessions')).rows[0]!.n);
  const before = await count();
  const statuses: number[] = [];
  for (let i = 0; i < WRITES + 6; i++) {
    const res = await smallPost(
      request,
      '/commerce/checkout-sessions',
      { lines: [{ variantId: String(variant.rows[0]!.id), quantity: 1 }] },
      creds().storefront,
      {
        'Site-Buyer-IP': `198.51.100.${i + 1}`,
        'Idempotency-Key': `rl-${Date.now()}-${i}`,
      },
    );
    statuses.push(res.status());
  }
  expect(statuses.filter((s) => s === 201)).toHaveLength(WRITES);
  expect(statuses.filter((s) => s === 429)).toHaveLength(6);
  expect((await count()) - before).toBe(WRITES);
  // `next start` runs no migration: the server switched its copy to WAL itself, without
  // which a write waits for the server's read transactions and fails as busy past 5 s.
  expect(String((await copy.execute('PRAGMA journal_mode')).rows[0]![0])).toBe('wal');
  copy.close();
});

test('a request without a live credential is answered 401 without counting or RateLimit headers', async ({ request }) => {
  for (let i = 0; i < READS + 2; i++) {
    const res = await request.get(`${SMALL}${V1}/site`, { headers: auth(`site_core_${'x'.repeat(40)}`), failOnStatusCode: false });
    await expectProblem(res, 401, 'unauthorized');
    expect(res.headers().ratelimit).toBeUndefined();
  }
});

test('the main server sends RateLimit headers on ordinary answers with generous defaults', async ({ request }) => {
  const read = await get(request, '/site');
  expect(read.status()).toBe(200);
  const policy = /^"reads";q=(\d+);w=(\d+)$/.exec(read.headers()['ratelimit-policy'] ?? '');
  expect(policy).not.toBeNull();
  expect(Number(policy![1])).toBeGreaterThanOrEqual(10_000);
  const limit = parseRateLimit(read.headers().ratelimit);
  expect(limit.policy).toBe('reads');
  expect(limit.remaining).toBeLessThan(Number(policy![1]));
  const notModified = await get(request, '/site', creds().core, { 'If-None-Match': read.headers().etag! });
  expect(notModified.status()).toBe(304);
  expect(notModified.headers().ratelimit).toMatch(/^"reads";r=\d+;t=\d+$/);
  const missing = await get(request, '/commerce/products/no-such-product');
  await expectProblem(missing, 404, 'not_found');
  expect(missing.headers().ratelimit).toMatch(/^"reads";r=\d+;t=\d+$/);
});
