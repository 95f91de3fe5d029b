import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from '@playwright/test';
import { expect, test } from './helpers';
import { creds } from '../support/api';
import { startOwnServer, type OwnServer } from './own-server';
import { mainDatabaseUrl, rawClient } from '../support/instances';

// The storefront on its own copy of the e2e database, with small budgets and an hour-long
// window (a run never straddles a reset): what one shopper can cost the API, and whether
// one shopper can spend everyone's budget. Budgets below 2,000 are counted exactly, so the
// credential's read counter says how many API reads a page cost.

test.describe.configure({ mode: 'serial' });

const WINDOW = '3600';
const ERROR = 'We couldn’t load this page';
let dir = '';
let proxied: OwnServer | undefined; // TRUSTED_PROXY_HOPS=1: one proxy in front, X-Forwarded-For's last entry is the shopper
let direct: OwnServer | undefined; // the default: the shopper is the socket's peer (127.0.0.1 here)

async function copyDatabase(name: string): Promise<string> {
  const source = rawClient(mainDatabaseUrl());
  const target = join(dir, `${name}.db`);
  await source.execute({ sql: 'VACUUM INTO ?', args: [target] });
  source.close();
  const copy = rawClient(`file:${target}`);
  await copy.execute('DELETE FROM rate_limit_counters');
  copy.close();
  return `file:${target}`;
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dir = mkdtempSync(join(tmpdir(), 'sd-shop-limits-'));
  const common = { SITE_API_CREDENTIAL: creds().storefront, RATE_LIMIT_WINDOW_SECONDS: WINDOW, RATE_LIMIT_READS: '1000' };
  // 60 a shopper: A's forged cart (up to 9 reads a view) is refused within a few views. B
  // browses in a real browser, which also prefetches the pages the home page links to, each
  // at a cost in reads, as many as the timing allows: 15 reads in a run here, but past 30 in
  // one CI run, where B's last view was refused for B's own budget.
  proxied = await startOwnServer({
    ...common,
    DATABASE_URL: await copyDatabase('proxied'),
    RATE_LIMIT_READS_PER_SHOPPER: '60',
    TRUSTED_PROXY_HOPS: '1',
  });
  direct = await startOwnServer({
    ...common,
    DATABASE_URL: await copyDatabase('direct'),
    RATE_LIMIT_READS_PER_SHOPPER: '30',
    RATE_LIMIT_WRITES_PER_SHOPPER: '3',
  });
});

test.afterAll(async () => {
  await proxied?.stop();
  await direct?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function database(server: 'proxied' | 'direct') {
  return rawClient(`file:${join(dir, `${server}.db`)}`);
}

/** The storefront credential's reads so far (its own bucket, not the shoppers'). */
async function credentialReads(server: 'proxied' | 'direct'): Promise<number> {
  const db = database(server);
  const rows = await db.execute("SELECT COALESCE(SUM(count), 0) AS n FROM rate_limit_counters WHERE bucket LIKE '%:r'");
  db.close();
  return Number(rows.rows[0]!.n);
}

/** A cart cookie no shopper could make by shopping: 100 made-up lines, each naming a made-up product, and 20 bundles of 20 products. */
const FORGED_CART = [
  'nonce_forged123',
  ...Array.from({ length: 100 }, (_, i) => `var_forged${i}~1~!made-up-${i}`),
  ...Array.from({ length: 20 }, (_, i) => `bun_f${i}~1~made-up-set-${i}`),
].join('.');

async function shopper(browser: Browser, server: OwnServer, headers: Record<string, string>, cart = FORGED_CART) {
  const context = await browser.newContext({ baseURL: server.url, extraHTTPHeaders: headers });
  await context.addCookies([
    { name: 'cart', value: cart, url: server.url },
    { name: 'market', value: 'se', url: server.url },
    { name: 'locale', value: 'en-SE', url: server.url },
  ]);
  return context;
}

test('a forged 100-line cart costs the API a few reads per view, not one per line', async ({ browser }) => {
  const context = await shopper(browser, proxied!, { 'X-Forwarded-For': '203.0.113.50' });
  // The page's own request only (a browser would also prefetch the pages it links to).
  const before = await credentialReads('proxied');
  const res = await context.request.get('/cart');
  expect(res.status()).toBe(200);
  const html = await res.text();
  const cost = (await credentialReads('proxied')) - before;
  expect(html).toContain('<h1>Your cart</h1>');
  // Site, storefront snapshot, one catalog read for every line, one availability batch,
  // and a product read for each of the at most 4 bundle products the cookie may name; and
  // at most one background health check of the API (one a second per instance, whatever
  // the traffic: lib/site-client/health.ts) that may fall inside the view.
  expect(cost).toBeGreaterThan(0);
  expect(cost).toBeLessThanOrEqual(9);

  const page = await context.newPage();
  await page.goto('/cart');
  await expect(page.getByRole('heading', { name: 'Your cart' })).toBeVisible();
  await expect(page.getByText('This item is no longer available. Remove it to continue.').first()).toBeVisible();
  await expect(page.getByRole('heading', { name: ERROR })).toHaveCount(0);
  await context.close();
});

/** Views /cart with the forged cookie until the shop refuses; answers after how many views (0: never, in 40). */
async function viewsUntilRefused(browser: Browser, server: OwnServer, forwardedFor: (i: number) => string): Promise<number> {
  for (let i = 1; i <= 40; i++) {
    const context = await shopper(browser, server, { 'X-Forwarded-For': forwardedFor(i) });
    const html = await (await context.request.get('/cart')).text();
    await context.close();
    // (The error text itself is always in the page, in the dictionary sent to the browser.)
    if (!html.includes('<h1>Your cart</h1>')) return i;
  }
  return 0;
}

test('one shopper who spends their budget is refused; another shopper still gets pages', async ({ browser }) => {
  // Shopper A sits behind the proxy at 203.0.113.10, and writes whatever they like to the
  // left of it in X-Forwarded-For: a new address per request.
  const refusedAfter = await viewsUntilRefused(browser, proxied!, (i) => `10.9.${i}.1, 203.0.113.10`);
  expect(refusedAfter, 'shopper A was never refused').toBeGreaterThan(1);

  // Shopper B, at another address, browses as if nothing happened.
  const context = await shopper(browser, proxied!, { 'X-Forwarded-For': '198.51.100.20' }, 'nonce_shopperb1');
  const page = await context.newPage();
  await page.goto('/');
  await expect(page.getByRole('link', { name: /Fjord Ceramic Mug/ }).first()).toBeVisible();
  await page.goto('/cart');
  await expect(page.getByRole('heading', { name: 'Your cart' })).toBeVisible();
  await expect(page.getByRole('heading', { name: ERROR })).toHaveCount(0);
  await context.close();

  // A is still refused, from any made-up address on the left: at once, before any render,
  // 429 with the API's Retry-After, in A's language, and nothing in the server's log.
  const again = await shopper(browser, proxied!, { 'X-Forwarded-For': '10.9.99.1, 203.0.113.10' });
  const logged = (await proxied!.loggedOutput()).length;
  for (let i = 0; i < 5; i++) {
    const refused = await again.request.get('/cart');
    expect(refused.status()).toBe(429);
    expect(Number(refused.headers()['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers()['cache-control']).toBe('no-store');
    expect(await refused.text()).toContain('<h1>Too many requests</h1>');
  }
  expect((await proxied!.loggedOutput()).slice(logged)).not.toMatch(/SiteApiError|rate_limited|Error/);
  const refusedPage = await again.newPage();
  await refusedPage.goto('/cart');
  await expect(refusedPage.getByRole('heading', { name: 'Too many requests' })).toBeVisible();
  await again.addCookies([{ name: 'locale', value: 'sv-SE', url: proxied!.url }]);
  await refusedPage.goto('/');
  await expect(refusedPage.getByRole('heading', { name: 'För många förfrågningar' })).toBeVisible();
  await again.close();

  // B, meanwhile, is not held up by A's refusals.
  const later = await shopper(browser, proxied!, { 'X-Forwarded-For': '198.51.100.20' }, 'nonce_shopperb1');
  const cart = await later.request.get('/cart');
  expect(cart.status()).toBe(200);
  expect(await cart.text()).toContain('<h1>Your cart</h1>');
  await later.close();
});

test('without trusted proxies, X-Forwarded-For is ignored: the socket is the shopper, however the header changes', async ({ browser }) => {
  // Checkouts first: each creates a session (a write charged to the shopper) — at most 3 per window.
  const db = database('direct');
  const variant = await db.execute(
    `SELECT v.id FROM product_variants v JOIN products p ON p.id = v.product_id JOIN sites s ON s.id = p.site_id
     WHERE s.handle = 'demo' AND p.handle = 'linen-tote-bag' ORDER BY v.position LIMIT 1`,
  );
  const sessions = async () => Number((await db.execute('SELECT count(*) AS n FROM checkout_sessions')).rows[0]!.n);
  const before = await sessions();
  for (let i = 1; i <= 6; i++) {
    const context = await shopper(
      browser,
      direct!,
      { 'X-Forwarded-For': `203.0.113.${i}`, 'X-Real-IP': `198.51.100.${i}` },
      `nonce_checkout${i}.${variant.rows[0]!.id}~1`,
    );
    const res = await context.request.post('/shop-api/checkout', { headers: { Origin: direct!.url }, maxRedirects: 0 });
    expect(res.status()).toBe(303);
    await context.close();
  }
  const created = (await sessions()) - before;
  expect(created).toBeGreaterThan(0);
  expect(created).toBeLessThanOrEqual(3);
  db.close();

  // Page views with a new forged address each time still run out of the one shopper's reads.
  const refusedAfter = await viewsUntilRefused(browser, direct!, (i) => `203.0.113.${100 + i}`);
  expect(refusedAfter, 'rotating X-Forwarded-For escaped the shopper budget').toBeGreaterThan(0);
});

test('a shopper over their read budget who sends a form is told how long to wait, with or without JavaScript, and nothing is logged as an error', async ({
  browser,
}) => {
  const headers = { 'X-Forwarded-For': '203.0.113.33' };
  const withScripts = await shopper(browser, proxied!, headers, 'nonce_formshopper');
  const withoutScripts = await browser.newContext({ baseURL: proxied!.url, extraHTTPHeaders: headers, javaScriptEnabled: false });
  await withoutScripts.addCookies([
    { name: 'locale', value: 'en-SE', url: proxied!.url },
    { name: 'market', value: 'se', url: proxied!.url },
  ]);
  const pages = [await withScripts.newPage(), await withoutScripts.newPage()];
  for (const [i, page] of pages.entries()) {
    await page.goto('/');
    const footer = page.getByRole('contentinfo');
    await footer.getByLabel('E-mail address').fill(`over.budget.${i}.${Date.now()}@example.se`);
    await footer.getByRole('checkbox').check();
  }
  // The rest of this shopper's reads go on forged-cart views, until the shop refuses them.
  const spender = await shopper(browser, proxied!, headers);
  let status = 200;
  for (let views = 0; status !== 429 && views < 40; views++) status = (await spender.request.get('/cart')).status();
  expect(status).toBe(429);
  await spender.close();

  const logged = (await proxied!.loggedOutput()).length;
  for (const page of pages) {
    await page.getByRole('contentinfo').getByRole('button', { name: 'Subscribe' }).click();
    await expect(page.getByText(/Please wait \d+ seconds, then try again\./).first()).toBeVisible();
  }
  expect((await proxied!.loggedOutput()).slice(logged)).not.toMatch(/Error|\n\s+at /);
  await withScripts.close();
  await withoutScripts.close();
});
