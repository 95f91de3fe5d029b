import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { closeDatabase, openDatabase } from '@/db';
import { migrateDatabase } from '@/db/migrate';
import { seedDatabase } from '@/db/seed';
import { createCredential } from '@/lib/platform/auth/credentials';
import { getProduct, getSite, listProducts } from '@/lib/contract/operations/reads';
import { startLibsqlTestServer, type LibsqlTestServer } from '../e2e/support/libsql-server';

// Issue #43 point 4 from the storefront's side: the API calls one page render makes
// in-process read the credential once (lib/site-client/in-process.ts), so a product page's
// reads after the first cost the database only what they read themselves. Against the libSQL
// test server, which records every request. The remote bench (scripts/bench/remote.ts) counts
// a whole page through `next start`.

vi.mock('server-only', () => ({}));

let dir: string;
let server: LibsqlTestServer;
let client: typeof import('@/lib/site-client');
let routes: typeof import('@/app/site/v1/_routes');
let token: string;
/** The render the calls are made in, as React's `cache` would scope it (null: outside one). */
let render: object | null = null;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sd-render-trips-'));
  server = await startLibsqlTestServer({ path: join(dir, 'site.db') });
  const setup = openDatabase({ url: server.url });
  await migrateDatabase(setup);
  await seedDatabase(setup);
  ({ token } = await createCredential(setup, { siteHandle: 'demo', scope: 'extended' }));
  closeDatabase(setup);
  // The app's database and the storefront's credential, the API in this process.
  process.env.DATABASE_URL = server.url;
  process.env.SITE_API_CREDENTIAL = token;
  delete process.env.SITE_API_BASE_URL;
  process.env.LOG_LEVEL = 'warn';
  client = await import('@/lib/site-client');
  routes = await import('@/app/site/v1/_routes');
  client.shareChecksWithin(() => render);
}, 120_000);

afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * The statements of each request `work` sent, one entry a request; not the rate limiter's
 * own (a lease's claim at a window's start, a sweep now and then at random), which come
 * when they come and are not the render's reads.
 */
const requestsOf = async (work: () => Promise<unknown>) =>
  (await server.requestsDuring(work)).filter((r) => !r.some((s) => /rate_limit_counters/.test(s)));

const credentialReads = (requests: string[][]) => requests.filter((r) => r.some((s) => /from "credentials"/.test(s))).length;

/** A product page's reads: the product, then its collection's other products (RelatedProducts). */
async function productPageReads(handle: string) {
  const product = await client.fetchProduct(handle);
  const collection = product.collections[0]?.handle;
  if (!collection) throw new Error(`${handle} is in no collection`);
  await client.searchProducts({ collection, limit: 5 });
  await client.fetchProduct(handle);
  return product;
}

describe('the API calls of one render, in-process', () => {
  it('read the credential once, however many calls the page makes', async () => {
    // Warm what every request finds kept (the markets, the product's answer), so that only the
    // credential reads differ between the two ways below.
    render = null;
    await productPageReads('linen-tote-bag');
    // the product answer's write, which would otherwise go out during one of the reads below
    const { flushStoredAnswers } = await import('@/lib/platform/cache/stored-answers');
    const { db } = await import('@/lib/db');
    await flushStoredAnswers(db());

    // A check is handed on for a bounded time (lib/platform/auth/http.ts), which a busy host's
    // render can outlast: what is counted here is the calls, so the clock stands still.
    render = {};
    const clock = vi.spyOn(performance, 'now').mockReturnValue(performance.now());
    const shared = await requestsOf(() => productPageReads('linen-tote-bag')).finally(() => clock.mockRestore());
    expect(credentialReads(shared)).toBe(1);

    // Outside a render, as over HTTP: every call checks its credential.
    render = null;
    const unshared = await requestsOf(() => productPageReads('linen-tote-bag'));
    expect(credentialReads(unshared)).toBe(3);
    expect(shared.length).toBe(unshared.length - 2);
  });

  it("hand back the route's own answers unparsed, which are what the contract's schemas make of them", async () => {
    render = {};
    const product = await client.fetchProduct('linen-tote-bag');
    const list = await client.searchProducts({ collection: product.collections[0]!.handle, limit: 5 });
    const site = await client.fetchSite();
    expect(list.data.length).toBeGreaterThan(0);
    expect(getProduct.success.schema.parse(product)).toEqual(product);
    expect(listProducts.success.schema.parse(list)).toEqual(list);
    expect(getSite.success.schema.parse(site)).toEqual(site);
  });

  it('check anew in another render', async () => {
    render = {};
    await client.fetchSite();
    render = {};
    const requests = await requestsOf(() => client.fetchSite());
    expect(credentialReads(requests)).toBe(1);
  });

  it('hand a check only to a request with the same credential, and only for a moment', async () => {
    // The clock moves only when this test says so: a busy host must not age the check.
    let now = performance.now();
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => now);
    try {
      const url = 'http://127.0.0.1:3000/site/v1/site';
      const first = new Request(url, { headers: { Authorization: `Bearer ${token}` } });
      expect((await routes.answerInProcess(first, null)).status).toBe(200);
      const check = routes.credentialCheckOf(first);
      expect(check).not.toBeNull();

      // Another credential (here one that does not exist) is looked up, not waved through.
      const other = new Request(url, { headers: { Authorization: `Bearer site_core_${'0'.repeat(40)}` } });
      expect((await routes.answerInProcess(other, check)).status).toBe(401);

      // The same credential with a fresh check: no lookup.
      const same = new Request(url, { headers: { Authorization: `Bearer ${token}` } });
      expect(credentialReads(await requestsOf(() => routes.answerInProcess(same, check)))).toBe(0);

      // Seconds later the check is stale: the request looks the credential up again.
      now += 5_000;
      const stale = new Request(url, { headers: { Authorization: `Bearer ${token}` } });
      expect(credentialReads(await requestsOf(() => routes.answerInProcess(stale, check)))).toBe(1);
    } finally {
      clock.mockRestore();
    }
  });
});
