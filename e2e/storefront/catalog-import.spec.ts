import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import type { Connection } from '@/db';
import { AvailabilityBatch, Product } from '@/lib/contract/catalog';
import type { CatalogDocument } from '@/lib/contract/catalog-document';
import { auth, creds, V1 } from '../support/api';
import { twoInstancesOnACopy, type Instance } from '../support/instances';
import { expect, test } from './helpers';

// A merchant's own catalog, changed with `npm run catalog` while two `next start` instances
// serve one database file (a consistent copy of the e2e database, so nothing here reaches
// other specs): every change is on the next request of both, API and storefront alike.
test.describe.configure({ mode: 'serial', timeout: 240_000 });

const scratch = mkdtempSync(join(tmpdir(), 'sd-catalog-'));
let url: string;
let a: Instance;
let b: Instance;
let database: Connection;

/** The heap cap package.json's `catalog` script gives the command. */
const CLI_HEAP = /--max-old-space-size=\d+/.exec(JSON.parse(readFileSync('package.json', 'utf8')).scripts.catalog)![0];

/** The command as a merchant runs it (package.json's `catalog` script), against the copy. */
function catalog(...args: string[]) {
  const result = spawnSync(process.execPath, ['--conditions=react-server', CLI_HEAP, '--import', 'tsx', 'scripts/catalog.ts', ...args], {
    encoding: 'utf8',
    env: { ...process.env, DATABASE_URL: url },
    timeout: 120_000,
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

async function version(): Promise<number> {
  return Number((await database.execute("SELECT catalog_version AS v FROM sites WHERE handle = 'demo'")).rows[0]!.v);
}

async function product(request: APIRequestContext, instance: Instance, handle: string) {
  const res = await request.get(`${instance.baseURL}${V1}/commerce/products/${handle}`, {
    headers: auth(creds().core),
    failOnStatusCode: false,
  });
  expect(res.status(), await res.text()).toBe(200);
  return Product.parse(await res.json());
}

async function pageHtml(request: APIRequestContext, instance: Instance, handle: string) {
  const res = await request.get(`${instance.baseURL}/products/${handle}`, {
    headers: { Cookie: 'market=se; locale=sv-SE' },
    failOnStatusCode: false,
  });
  return { status: res.status(), html: await res.text() };
}

const heading = (html: string) => /<h1>(.*?)<\/h1>/.exec(html)?.[1];

let stop: (() => Promise<void>) | undefined;
test.beforeAll(async () => {
  ({ url, a, b, database, stop } = await twoInstancesOnACopy(scratch, { SITE_API_CREDENTIAL: creds().storefront }));
});
test.afterAll(async () => {
  await stop?.();
  rmSync(scratch, { recursive: true, force: true });
});

test('an edited export, imported while both instances run, is on the next request of each', async ({ request }) => {
  const handle = 'fjord-ceramic-mug';
  for (const instance of [a, b]) {
    // warm: API cache and page cache both hold the old catalog
    for (let i = 0; i < 2; i += 1) await product(request, instance, handle);
    for (let i = 0; i < 2; i += 1) expect((await pageHtml(request, instance, handle)).status).toBe(200);
  }
  const file = join(scratch, 'demo.json');
  const exported = catalog('export', '--site', 'demo', '--out', file);
  expect(exported.code, exported.err).toBe(0);
  const doc = JSON.parse(readFileSync(file, 'utf8')) as CatalogDocument;
  const mug = doc.products.find((p) => p.handle === handle)!;
  mug.texts['sv-SE']!.title = 'Fjordmugg, ny glasyr';
  mug.variants[0]!.prices.se!.amount = '123.45';
  writeFileSync(file, JSON.stringify(doc, null, 2));

  const dry = catalog('import', '--site', 'demo', file, '--dry-run');
  expect(dry.code, dry.err).toBe(0);
  expect(dry.out).toMatch(/products\s+created 0, updated 1/);
  expect((await product(request, b, handle)).title).not.toBe('Fjordmugg, ny glasyr');

  const before = await version();
  const applied = catalog('import', '--site', 'demo', file);
  expect(applied.code, applied.err).toBe(0);
  expect(applied.out).toMatch(/Applied: .* catalog version \d+ → \d+/);
  for (const instance of [a, b]) {
    const shown = await product(request, instance, handle);
    expect(shown.title).toBe('Fjordmugg, ny glasyr');
    expect(shown.variants[0]!.price).toEqual({ amount: '123.45', currency: 'SEK' });
    const page = await pageHtml(request, instance, handle);
    expect(heading(page.html)).toBe('Fjordmugg, ny glasyr');
  }
  const after = await version();
  expect(after).toBeGreaterThan(before);

  // the same file again: nothing written, the version (and so every cache) stays
  const again = catalog('import', '--site', 'demo', file);
  expect(again.code, again.err).toBe(0);
  expect(again.out).toMatch(/Nothing to change/);
  expect(await version()).toBe(after);
});

test('a Shopify CSV imports into what the storefront shows, and a stock change follows', async ({ page, request }) => {
  const imported = catalog('import', '--site', 'demo', '--format', 'shopify-csv', 'test/fixtures/shopify-products.csv');
  expect(imported.code, imported.err).toBe(0);
  expect(imported.out).toMatch(/products\s+created 3/);

  // the images live on Shopify's CDN, which a test machine does not reach
  await page.route('https://cdn.shopify.com/**', (route) => route.abort());
  let alerted = false;
  page.on('dialog', (dialog) => {
    alerted = true;
    void dialog.dismiss();
  });
  await page.context().addCookies([
    { name: 'market', value: 'se', url: a.baseURL },
    { name: 'locale', value: 'sv-SE', url: a.baseURL },
  ]);
  await page.goto(`${a.baseURL}/products/nordic-wool-sweater`, { waitUntil: 'networkidle' });
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Nordic Wool Sweater');
  await expect(page.getByText('Knitted from undyed Gotland wool in a small mill <50 km from our studio.')).toBeVisible();
  await expect(page.getByText('• Relaxed fit')).toBeVisible();
  await expect(page.getByRole('img', { name: 'Oat wool sweater, front' })).toBeAttached();
  // the sanitised description runs nothing and links nowhere
  await expect(page.locator('.description script, .description a, .description iframe, .description img')).toHaveCount(0);
  expect(page.url()).toBe(`${a.baseURL}/products/nordic-wool-sweater`);
  expect(alerted).toBe(false);

  const sweater = await product(request, b, 'nordic-wool-sweater');
  expect(sweater.variants.map((v) => `${v.sku} ${v.price.amount} ${v.availability}`)).toEqual([
    'NWS-OAT-S 899.00 in_stock',
    'NWS-OAT-M 899.00 out_of_stock',
    'NWS-OAT-L 949.00 in_stock',
    'NWS-CHA-S 899.00 low_stock',
    'NWS-CHA-M 899.00 in_stock',
    'NWS-CHA-L 949.00 in_stock',
  ]);
  expect((await pageHtml(request, b, 'linen-apron-draft')).status).toBe(404);

  // a delivery arrived: the sold-out variant is back on both instances' next request
  const oatM = sweater.variants[1]!.id;
  const stock = catalog('stock', '--site', 'demo', 'NWS-OAT-M=3');
  expect(stock.code, stock.err).toBe(0);
  for (const instance of [a, b]) {
    const res = await request.get(`${instance.baseURL}${V1}/commerce/availability?variantIds=${oatM}`, { headers: auth(creds().core) });
    expect(AvailabilityBatch.parse(await res.json()).data[0]!.status).toBe('low_stock');
  }
});

test('a product priced in the default market only says so in the others, in the API and the shop, never 404', async ({ page, request }) => {
  // the Shopify file above priced the sweater in se only
  for (const instance of [a, b]) {
    const res = await request.get(`${instance.baseURL}${V1}/commerce/products/nordic-wool-sweater?market=de&locale=de-DE`, {
      headers: auth(creds().core),
      failOnStatusCode: false,
    });
    expect(res.status()).toBe(422);
    expect(res.headers()['content-type']).toContain('application/problem+json');
    expect(await res.json()).toMatchObject({
      code: 'not_sold_in_market',
      product: { handle: 'nordic-wool-sweater', title: 'Nordic Wool Sweater' },
      soldIn: ['se'],
    });
  }
  await page.route('https://cdn.shopify.com/**', (route) => route.abort());
  await page.context().addCookies([
    { name: 'market', value: 'de', url: a.baseURL },
    { name: 'locale', value: 'de-DE', url: a.baseURL },
  ]);
  const response = await page.goto(`${a.baseURL}/products/nordic-wool-sweater`);
  expect(response!.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Nordic Wool Sweater');
  await expect(page.getByText(/^In deinem Markt \(.+\) nicht erhältlich\.$/)).toBeVisible();
  await expect(page.getByText(/^Erhältlich in: .+\. Wähle einen anderen Markt/)).toBeVisible();
  // the other instance, asked twice (the second from its kept page), says the same
  for (let i = 0; i < 2; i += 1) {
    const res = await request.get(`${b.baseURL}/products/nordic-wool-sweater`, {
      headers: { Cookie: 'market=de; locale=de-DE' },
      failOnStatusCode: false,
    });
    expect(res.status()).toBe(200);
    expect(await res.text()).toContain('nicht erhältlich');
  }
});

test('an invalid file is refused whole and nothing changes on either instance', async ({ request }) => {
  const file = join(scratch, 'bad.json');
  const doc = JSON.parse(readFileSync(join(scratch, 'demo.json'), 'utf8')) as CatalogDocument;
  doc.products.find((p) => p.handle === 'fjord-ceramic-mug')!.variants[0]!.prices.se!.amount = '1.00';
  doc.products[0]!.variants[0]!.prices.se!.currency = 'EUR';
  writeFileSync(file, JSON.stringify(doc, null, 2));
  const before = await version();
  const refused = catalog('import', '--site', 'demo', file);
  expect(refused.code).toBe(1);
  expect(refused.err).toMatch(/prices\/se\/currency, "[a-z0-9-]+", currency: expected SEK/);
  expect(await version()).toBe(before);
  for (const instance of [a, b]) expect((await product(request, instance, 'fjord-ceramic-mug')).variants[0]!.price.amount).toBe('123.45');
});
