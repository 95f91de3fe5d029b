import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import type { Client } from '@libsql/client';
import { Product } from '@/lib/contract/catalog';
import { creds, get } from '../support/api';
import { twoInstancesOnACopy, type Instance } from '../support/instances';
import { startOwnServer } from './own-server';
import { BASE_URL, currentVariantId, expect, openProduct, test, useLocale } from './helpers';

// Product pages come from Next's page cache, keyed by origin, market, locale and the Site's
// catalog version (proxy.ts). These tests prove the cache is used — a second request is a
// HIT — and that it is never stale: not after a catalog change made behind the back of two
// instances, not for another market, not for `?variant=`, not for the shopper's cart.

type Page = { status: number; html: string; cache: string | undefined; key: string | undefined };

async function productPage(request: APIRequestContext, base: string, handle: string, cookie = 'market=se; locale=en-SE'): Promise<Page> {
  const res = await request.get(`${base}/products/${handle}`, { headers: cookie ? { Cookie: cookie } : {}, failOnStatusCode: false });
  return { status: res.status(), html: await res.text(), cache: res.headers()['x-nextjs-cache'], key: res.headers()['x-middleware-rewrite'] };
}

/**
 * The page as the cache serves it: asked for until the answer is a HIT. Other specs change
 * the shared catalog while this one runs, and every change is (rightly) a new key whose first
 * view renders; a page that never comes from the cache fails here.
 */
async function cachedPage(request: APIRequestContext, handle: string, cookie?: string): Promise<Page> {
  for (let attempt = 0; ; attempt += 1) {
    const page = await productPage(request, '', handle, cookie);
    if (page.cache === 'HIT' || attempt === 4) {
      expect(page.cache, `${handle} from the page cache`).toBe('HIT');
      return page;
    }
  }
}

/** A document answer from the cached route (rendered for it now or earlier): its key's path. */
function cachedKey(headers: Record<string, string> | undefined): string {
  expect(headers?.['x-nextjs-cache']).toMatch(/^(HIT|MISS)$/);
  return new URL(headers?.['x-middleware-rewrite'] ?? '', BASE_URL).pathname;
}

/** The page's Product JSON-LD: its name and its offers' prices by SKU. */
function structured(html: string): { name?: string; prices: Map<string, string> } {
  const ld = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html)?.[1];
  const product = JSON.parse(ld ?? '{}') as { name?: string; offers?: { sku: string; price: string }[] };
  return { name: product.name, prices: new Map((product.offers ?? []).map((o) => [o.sku, o.price])) };
}

/** The page's heading (not the whole HTML, so a failure prints something readable). */
function heading(html: string): string | undefined {
  return /<h1>(.*?)<\/h1>/.exec(html)?.[1];
}

test.describe('a catalog change, two instances on one database', () => {
  // A consistent copy of the e2e database: the changes here never reach other specs.
  test.describe.configure({ mode: 'serial', timeout: 180_000 });
  const scratch = mkdtempSync(join(tmpdir(), 'sd-pages-'));
  let a: Instance;
  let b: Instance;
  let database: Client;

  let stop: (() => Promise<void>) | undefined;

  test.beforeAll(async () => {
    ({ a, b, database, stop } = await twoInstancesOnACopy(scratch, { SITE_API_CREDENTIAL: creds().storefront }));
  });
  test.afterAll(async () => {
    await stop?.();
    rmSync(scratch, { recursive: true, force: true });
  });

  test('is on the very next page view of every instance', async ({ request }) => {
    const handle = 'glacier-dinner-plate';
    for (const instance of [a, b]) {
      const first = await productPage(request, instance.baseURL, handle);
      expect(first.status).toBe(200);
      expect(heading(first.html)).toBe('Glacier Dinner Plate');
      // The second view is served from the page cache, under the same key.
      const second = await productPage(request, instance.baseURL, handle);
      expect(second.cache).toBe('HIT');
      expect(second.key).toBe(first.key);
    }
    const white = (await database.execute({
      sql: "SELECT v.sku, v.id FROM product_variants v JOIN products p ON p.id = v.product_id WHERE p.handle = ? AND v.title = 'White'",
      args: [handle],
    })).rows[0] as unknown as { sku: string; id: string };
    const { sku, id } = white;
    expect(structured((await productPage(request, a.baseURL, handle)).html).prices.get(sku)).toBe('99.00');

    // As an import or an admin tool would: straight into the database, no instance told.
    await database.execute({
      sql: "UPDATE product_translations SET title = 'Glacier Plate (renamed)' WHERE locale = 'en-SE' AND product_id = (SELECT id FROM products WHERE handle = ?)",
      args: [handle],
    });
    for (const instance of [a, b]) {
      const page = await productPage(request, instance.baseURL, handle);
      expect(heading(page.html)).toBe('Glacier Plate (renamed)');
      expect(structured(page.html).name).toBe('Glacier Plate (renamed)');
    }

    await database.execute({ sql: "UPDATE variant_prices SET amount = 12345 WHERE market_id = 'se' AND variant_id = ?", args: [id] });
    for (const instance of [a, b]) {
      const page = await productPage(request, instance.baseURL, handle);
      expect(structured(page.html).prices.get(sku)).toBe('123.45');
      // …and the new page is cached in turn.
      expect((await productPage(request, instance.baseURL, handle)).cache).toBe('HIT');
    }

    // Unpublished: the next view is the shop's 404, on both.
    await database.execute({ sql: "UPDATE products SET status = 'draft' WHERE handle = ?", args: [handle] });
    for (const instance of [a, b]) {
      const page = await productPage(request, instance.baseURL, handle);
      expect(page.status).toBe(404);
      expect(structured(page.html).name).toBeUndefined();
    }
  });
});

test.describe('cached product pages', () => {
  test('junk cookies map to the Site defaults, and internal paths are not reachable', async ({ request }) => {
    const plain = await productPage(request, '', 'hygge-wool-rug', '');
    expect(plain.key).toMatch(/^\/storefront-cache\/[A-Za-z0-9_-]+\/se\/sv-SE\/site_[A-Za-z0-9]+\.\d+\/products\/hygge-wool-rug$/);
    // Unknown market or locale: the defaults, exactly as the page itself would choose them.
    expect((await productPage(request, '', 'hygge-wool-rug', 'market=zz; locale=xx-YY')).key).toBe(plain.key);
    // A locale the market does not offer: that market's default locale.
    const de = await productPage(request, '', 'hygge-wool-rug', 'market=de; locale=sv-SE');
    expect(de.key).toBe(plain.key!.replace('/se/sv-SE/', '/de/de-DE/'));
    expect(de.html.startsWith('<!DOCTYPE html><html lang="de-DE">')).toBe(true);
    // The cache key is only ever made by the proxy.
    expect((await request.get(plain.key!, { failOnStatusCode: false })).status()).toBe(404);
  });

  test('switching market shows the other market’s prices on a cached page', async ({ page, context, request }) => {
    const handle = 'stoneware-serving-bowl';
    for (const cookie of ['market=se; locale=en-SE', 'market=de; locale=en-DE']) {
      const cached = await cachedPage(request, handle, cookie);
      expect(structured(cached.html).prices.size).toBeGreaterThan(0);
      expect(cached.html.includes(cookie.includes('de') ? '"priceCurrency":"EUR"' : '"priceCurrency":"SEK"')).toBe(true);
    }

    await useLocale(context);
    const first = await page.goto(`/products/${handle}`);
    expect(cachedKey(first?.headers())).toContain('/se/en-SE/');
    const price = page.locator('.product-info .price').first();
    await expect(price).toContainText('kr');

    await page.getByLabel('Country / region and language').selectOption({ label: 'Germany & Austria (EUR) · English' });
    await page.getByRole('button', { name: 'Apply' }).click();
    // At once, without a reload: the old market's copy is never shown again.
    await expect(price).toContainText('€');
    await expect(price).not.toContainText('kr');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en-DE');
    await expect(page.getByLabel('Country / region and language')).toHaveValue('de|en-DE');
    // The cookies now pick the new market's cached copy.
    const again = await page.reload();
    expect(cachedKey(again?.headers())).toContain('/de/en-DE/');
    await expect(price).toContainText('€');
  });

  test('?variant= still picks the variant on a cached page', async ({ page, context, request }) => {
    const handle = 'fjord-ceramic-mug';
    const product = Product.parse(await (await get(request, `/commerce/products/${handle}?market=se&locale=en-SE`)).json());
    const sand = product.variants.find((v) => v.title === 'Sand')!;
    expect(sand.id).not.toBe(product.variants.find((v) => v.availability !== 'out_of_stock')!.id);
    await cachedPage(request, handle, 'market=se; locale=en-SE');

    await useLocale(context);
    const res = await page.goto(`/products/${handle}?variant=${encodeURIComponent(sand.id)}`);
    // The same cached HTML as without the query (a query is no part of the key): the
    // choice is made in the browser.
    expect(cachedKey(res?.headers())).toMatch(/\/se\/en-SE\/[^/]+\/products\/fjord-ceramic-mug$/);
    await expect(page.getByRole('radio', { name: 'Sand' })).toBeChecked();
    await expect(page.getByTestId('availability')).toHaveText('Only a few left');
    await expect(page.getByText(`SKU: ${sand.sku}`)).toBeVisible();
    expect(await currentVariantId(page)).toBe(sand.id);
  });

  test('bundle items are named and linked to their own products (read by handle, not by paging the catalog)', async ({ page, context }) => {
    await useLocale(context);
    await page.goto('/products/morning-coffee-set');
    const bundles = page.getByRole('region', { name: 'Bundle offer' });
    const mug = bundles.getByRole('link', { name: 'Fjord Ceramic Mug — Midnight' });
    await expect(mug).toHaveAttribute('href', /^\/products\/fjord-ceramic-mug\?variant=var_[A-Za-z0-9]+$/);
    await expect(bundles.getByRole('link', { name: 'Stoneware Serving Bowl — Sand' })).toBeVisible();
    await mug.click();
    await expect(page.getByRole('heading', { level: 1, name: 'Fjord Ceramic Mug' })).toBeVisible();
    // The link's ?variant= picks Midnight (the page would show White first).
    await expect(page.getByRole('radio', { name: 'Midnight' })).toBeChecked();
  });

  test('the header counts the shopper’s own cart on a cached page', async ({ page, context, request, browser }) => {
    // Two browser contexts and four page loads: more than the default 30 s on a busy machine.
    test.slow();
    const handle = 'fjord-ceramic-mug';
    const cached = await cachedPage(request, handle, 'market=se; locale=en-SE');
    // The shared HTML holds no cart count: it is asked for in the browser.
    expect(cached.html).not.toContain('cart-count');

    await useLocale(context);
    await openProduct(page, `/products/${handle}`);
    await expect(page.getByRole('link', { name: 'Cart 0', exact: true })).toBeVisible();
    await page.getByLabel('Quantity').fill('2');
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await expect(page.getByText('Added to your cart.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Cart 2', exact: true })).toBeVisible();

    const again = await page.reload();
    expect(cachedKey(again?.headers())).toContain('/products/fjord-ceramic-mug');
    await expect(page.getByRole('link', { name: 'Cart 2', exact: true })).toBeVisible();
    // Another shopper, same cached page: their own (empty) cart.
    const other = await browser.newContext({ baseURL: BASE_URL });
    await useLocale(other);
    const stranger = await other.newPage();
    await stranger.goto(`/products/${handle}`);
    await expect(stranger.getByRole('link', { name: 'Cart 0', exact: true })).toBeVisible();
    await other.close();
  });
});

test.describe('the page cache’s size (PAGE_CACHE_MB)', () => {
  test('0 turns the cache off: every view renders, none is a HIT', async ({ request }) => {
    const server = await startOwnServer({ SITE_API_CREDENTIAL: creds().storefront, PAGE_CACHE_MB: '0' });
    try {
      const views = [];
      for (let i = 0; i < 3; i += 1) views.push(await productPage(request, server.url, 'fjord-ceramic-mug'));
      expect(views.map((v) => v.status)).toEqual([200, 200, 200]);
      expect(views.map((v) => v.cache)).not.toContain('HIT');
      expect(heading(views[2]!.html)).toBeTruthy();
    } finally {
      await server.stop();
    }
  });

  test('a value that is not a size stops the server with a message that names it', async () => {
    await expect(startOwnServer({ SITE_API_CREDENTIAL: creds().storefront, PAGE_CACHE_MB: '16MB' })).rejects.toThrow(/PAGE_CACHE_MB must be a whole number/);
  });
});
