import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { expect, test } from '../support/contract';
import type { Connection } from '@/db';
import { AvailabilityBatch, Product, ProductPage, StorefrontSnapshot } from '@/lib/contract/catalog';
import { auth, creds, V1 } from '../support/api';
import { copyDatabase, type Instance, killInstance, mainDatabaseUrl, rawClient, startInstance } from '../support/instances';

// The API caches serialised catalog reads per (Site, catalog version). Two `next start`
// instances on one database file (a consistent copy of the e2e database, so the changes
// here never reach other specs) must both show a change made directly in the database —
// as an import, an admin tool or a third instance would — on the very next request.
test.describe.configure({ mode: 'serial', timeout: 180_000 });

const scratch = mkdtempSync(join(tmpdir(), 'sd-cache-'));
let a: Instance;
let b: Instance;
let database: Connection;

test.beforeAll(async () => {
  const url = await copyDatabase(mainDatabaseUrl(), join(scratch, 'site.db'));
  [a, b] = await Promise.all([startInstance(url), startInstance(url)]);
  database = rawClient(url);
});
test.afterAll(async () => {
  database?.close();
  await Promise.all([a, b].filter(Boolean).map(killInstance));
  rmSync(scratch, { recursive: true, force: true });
});

function read(request: APIRequestContext, instance: Instance, path: string, headers: Record<string, string> = {}) {
  return request.get(`${instance.baseURL}${V1}${path}`, { headers: auth(creds().core, headers), failOnStatusCode: false });
}

async function product(request: APIRequestContext, instance: Instance, handle: string) {
  const res = await read(request, instance, `/commerce/products/${handle}`);
  expect(res.status(), await res.text()).toBe(200);
  return { body: Product.parse(await res.json()), etag: res.headers().etag! };
}

async function warm(request: APIRequestContext, handle: string) {
  // twice on each instance: the second read is a cache hit
  for (const instance of [a, b]) for (let i = 0; i < 2; i += 1) await product(request, instance, handle);
}

test('a price change is visible on both instances at once, with a new ETag', async ({ request }) => {
  await warm(request, 'fjord-ceramic-mug');
  const before = await product(request, a, 'fjord-ceramic-mug');
  const variant = before.body.variants[0]!;
  await database.execute({ sql: "UPDATE variant_prices SET amount = 98765 WHERE variant_id = ? AND market_id = 'se'", args: [variant.id] });

  for (const instance of [a, b]) {
    const after = await product(request, instance, 'fjord-ceramic-mug');
    expect(after.body.variants[0]!.price).toEqual({ amount: '987.65', currency: 'SEK' });
    expect(after.etag).not.toBe(before.etag);
    // the old validator no longer matches: a full answer, not 304
    expect((await read(request, instance, '/commerce/products/fjord-ceramic-mug', { 'If-None-Match': before.etag })).status()).toBe(200);
  }
});

test('a stock change is visible in product, availability and lists on both instances at once', async ({ request }) => {
  await warm(request, 'fjord-ceramic-mug');
  const ids = (await product(request, a, 'fjord-ceramic-mug')).body.variants.map((v) => v.id);
  const batchPath = `/commerce/availability?variantIds=${ids.join(',')}`;
  for (const instance of [a, b]) {
    expect((await read(request, instance, batchPath)).status()).toBe(200);
    expect((await read(request, instance, '/commerce/products?limit=100')).status()).toBe(200);
  }

  await database.execute({
    sql: `UPDATE inventory_levels SET quantity = 0, policy = 'deny' WHERE variant_id IN (${ids.map(() => '?').join(',')})`,
    args: ids,
  });

  for (const instance of [a, b]) {
    const p = await product(request, instance, 'fjord-ceramic-mug');
    expect(p.body.variants.map((v) => v.availability)).toEqual(ids.map(() => 'out_of_stock'));
    const batch = AvailabilityBatch.parse(await (await read(request, instance, batchPath)).json());
    expect(batch.data.map((d) => d.status)).toEqual(ids.map(() => 'out_of_stock'));
    const single = await (await read(request, instance, `/commerce/availability/${ids[0]}`)).json();
    expect(single.status).toBe('out_of_stock');
    const page = ProductPage.parse(await (await read(request, instance, '/commerce/products?limit=100')).json());
    expect(page.data.find((s) => s.handle === 'fjord-ceramic-mug')?.availability).toBe('out_of_stock');
  }
});

test('unpublishing a product removes it from both instances at once; publishing brings it back', async ({ request }) => {
  await warm(request, 'linen-tote-bag');
  const setStatus = (status: string) =>
    database.execute({
      sql: "UPDATE products SET status = ? WHERE handle = 'linen-tote-bag' AND site_id = (SELECT id FROM sites WHERE handle = 'demo')",
      args: [status],
    });
  await setStatus('draft');
  for (const instance of [a, b]) {
    expect((await read(request, instance, '/commerce/products/linen-tote-bag')).status()).toBe(404);
    const page = ProductPage.parse(await (await read(request, instance, '/commerce/products?limit=100')).json());
    expect(page.data.map((s) => s.handle)).not.toContain('linen-tote-bag');
  }
  await setStatus('published');
  for (const instance of [a, b]) expect((await read(request, instance, '/commerce/products/linen-tote-bag')).status()).toBe(200);
});

test('the storefront snapshot shows a new title and a new version on both instances at once', async ({ request }) => {
  const snapshot = async (instance: Instance) =>
    StorefrontSnapshot.parse(await (await read(request, instance, '/commerce/storefront')).json());
  const before = await snapshot(a);
  await snapshot(b);
  const featured = before.featured[0]!;
  await database.execute({
    sql: "UPDATE product_translations SET title = 'Renamed for the cache test' WHERE product_id = ? AND locale = ?",
    args: [featured.id, before.locale],
  });
  for (const instance of [a, b]) {
    const after = await snapshot(instance);
    expect(after.version).not.toBe(before.version);
    expect(after.featured.find((p) => p.id === featured.id)?.title).toBe('Renamed for the cache test');
  }
});
