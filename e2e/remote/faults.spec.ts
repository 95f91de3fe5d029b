import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { APIRequestContext } from '@playwright/test';
import { auth, creds, expectProblem, V1 } from '../support/api';
import { copyDatabase, freePort, killInstance, startInstance, type Instance } from '../support/instances';
import { startLibsqlTestServer, type LibsqlTestServer } from '../support/libsql-server';
import { expect, test } from '../storefront/helpers';

// The remote database failing under a running shop: the server stopped (the port refuses),
// paused (it takes requests and never answers), and refusing the app's token (401). Each
// time the API answers 503 problem+json with Retry-After and the shop its 503 page, within
// DATABASE_TIMEOUT_MS; never a 500, never a request left hanging. Then service comes back.

const TIMEOUT_MS = 1500;
const TOKEN = 'remote-faults-token';
// A bound on a request, not a wait: a request still open after this counts as hung.
const HUNG_MS = 15_000;

test.describe.configure({ mode: 'serial', timeout: 120_000 });

let scratch = '';
let database: LibsqlTestServer;
let shop: Instance;
test.beforeAll(async () => {
  test.setTimeout(180_000);
  scratch = mkdtempSync(join(tmpdir(), 'sd-remote-faults-'));
  const copy = await copyDatabase(`file:${join(process.env.E2E_DATA_DIR!, 'remote.db')}`, join(scratch, 'site.db'));
  database = await startLibsqlTestServer({ path: copy.slice('file:'.length), authToken: TOKEN });
  const port = await freePort();
  shop = await startInstance(
    database.url,
    {
      DATABASE_AUTH_TOKEN: TOKEN,
      DATABASE_TIMEOUT_MS: String(TIMEOUT_MS),
      SITE_API_CREDENTIAL: creds().storefront,
      SITE_API_BASE_URL: `http://127.0.0.1:${port}`,
      PAGE_RENDER_AHEAD: 'off',
      OUTBOX_DRAIN: 'off',
      MAIL_EML_DIR: join(scratch, 'outbox'),
    },
    120_000,
    port,
  );
});
test.afterEach(async ({}, testInfo) => {
  if (shop && testInfo.status !== testInfo.expectedStatus)
    await testInfo.attach('server output', { body: shop.output(), contentType: 'text/plain' });
});
test.afterAll(async () => {
  if (shop) await killInstance(shop);
  await database?.close();
  rmSync(scratch, { recursive: true, force: true });
});

const PRODUCT = '/commerce/products/linen-tote-bag';

/** A read and a write of the API, each timed. */
async function apiCalls(request: APIRequestContext) {
  const out = [];
  for (const call of [
    () => request.get(`${shop.baseURL}${V1}${PRODUCT}`, { headers: auth(creds().core), timeout: HUNG_MS, failOnStatusCode: false }),
    () =>
      request.post(`${shop.baseURL}${V1}/newsletter/subscriptions`, {
        headers: auth(creds().extended, { 'Content-Type': 'application/json' }),
        data: JSON.stringify({
          email: `remote.${Date.now()}@example.com`,
          consent: { granted: true, text: 'Yes, send me the newsletter.', version: '2026-01' },
        }),
        timeout: HUNG_MS,
        failOnStatusCode: false,
      }),
  ]) {
    const started = performance.now();
    const res = await call();
    out.push({ res, ms: performance.now() - started });
  }
  return out;
}

async function expectUnavailable(request: APIRequestContext) {
  for (const { res, ms } of await apiCalls(request)) {
    await expectProblem(res, 503, 'service_unavailable');
    expect(Number(res.headers()['retry-after'])).toBeGreaterThan(0);
    // Its first round trip to the database fails within the timeout, the others at once
    // (db/driver/remote-client.ts); the rest is a margin for a busy machine.
    expect(ms, `${res.url()} answered after ${Math.round(ms)} ms`).toBeLessThan(TIMEOUT_MS + 1500);
  }
}

async function expectShopUnavailable(browser: import('@playwright/test').Browser) {
  const context = await browser.newContext({ baseURL: shop.baseURL });
  await context.addCookies([
    { name: 'market', value: 'se', url: shop.baseURL },
    { name: 'locale', value: 'en-SE', url: shop.baseURL },
  ]);
  const page = await context.newPage();
  // The first page that meets the outage shows the message; the shop answers 503 from then on.
  await expect(async () => {
    const res = await page.goto('/products/linen-tote-bag', { timeout: HUNG_MS });
    expect(res?.status()).toBe(503);
  }).toPass({ timeout: 30_000 });
  expect((await page.goto('/', { timeout: HUNG_MS }))?.status()).toBe(503);
  await expect(page.getByRole('heading', { level: 1, name: 'We couldn’t load this page' })).toBeVisible();
  await context.close();
}

async function expectServing(request: APIRequestContext) {
  await expect(async () => {
    const res = await request.get(`${shop.baseURL}${V1}${PRODUCT}`, {
      headers: auth(creds().core),
      timeout: HUNG_MS,
      failOnStatusCode: false,
    });
    expect(res.status()).toBe(200);
  }).toPass({ timeout: 30_000 });
}

test('healthy: the shop and its API answer from the remote database', async ({ request, browser }) => {
  await expectServing(request);
  const page = await browser.newPage({ baseURL: shop.baseURL });
  expect((await page.goto('/products/linen-tote-bag'))?.status()).toBe(200);
  await page.close();
  expect(database.requests()).toBeGreaterThan(0);
});

test('stopped: 503 with Retry-After from the API and the shop, at once; served again once it is back', async ({ request, browser }) => {
  await database.stop();
  await expectUnavailable(request);
  await expectShopUnavailable(browser);
  await database.start();
  await expectServing(request);
});

test('stalled: 503 within DATABASE_TIMEOUT_MS, never a hung request; served again once it answers', async ({ request, browser }) => {
  database.pause();
  await expectUnavailable(request);
  await expectShopUnavailable(browser);
  expect(database.held()).toBeGreaterThan(0);
  database.resume();
  await expectServing(request);
});

test('refusing the token (401): 503, and served again once the token fits', async ({ request, browser }) => {
  database.setAuthToken('rotated-token');
  await expectUnavailable(request);
  await expectShopUnavailable(browser);
  database.setAuthToken(TOKEN);
  await expectServing(request);
  expect(shop.output()).toMatch(/storage fault \(denied\)/);
  expect(shop.output()).not.toMatch(/unhandled error/);
});
