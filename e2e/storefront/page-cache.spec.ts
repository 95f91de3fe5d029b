import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import type { Connection } from '@/db';
import { Product } from '@/lib/contract/catalog';
import { creds, get } from '../support/api';
import { copyDatabase, mainDatabaseUrl, rawClient, twoInstancesOnACopy, type Instance } from '../support/instances';
import { startOwnServer } from './own-server';
import { BASE_URL, currentVariantId, expect, openProduct, test, typeUntilSuggested, useLocale } from './helpers';

// Product pages are kept: in the database once rendered (X-Page-Source: stored), and in
// Next's page cache, keyed by origin, market, locale and the Site's catalog version
// (proxy.ts). These tests prove both are used — a second request renders nothing — and that
// a kept page is never stale: not after a catalog change made behind the back of two
// instances, not for another market, not for `?variant=`, not for the shopper's cart.

type Page = { status: number; html: string; cache: string | undefined; key: string | undefined; source: string | undefined };

async function productPage(request: APIRequestContext, base: string, handle: string, cookie = 'market=se; locale=en-SE'): Promise<Page> {
  const res = await request.get(`${base}/products/${handle}`, { headers: cookie ? { Cookie: cookie } : {}, failOnStatusCode: false });
  const headers = res.headers();
  return {
    status: res.status(),
    html: await res.text(),
    cache: headers['x-nextjs-cache'],
    key: headers['x-middleware-rewrite'],
    source: headers['x-page-source'],
  };
}

/** Served as kept, rendering nothing: from the database, or a HIT of Next's page cache. */
function kept(page: Pick<Page, 'cache' | 'source'>): boolean {
  return page.source === 'stored' || page.cache === 'HIT';
}

/**
 * The page as it is kept: asked for until it is served without a render. Other specs change
 * the shared catalog while this one runs, and every change is (rightly) a new key whose first
 * view renders; a page that is never served as kept fails here.
 */
async function cachedPage(request: APIRequestContext, handle: string, cookie?: string): Promise<Page> {
  for (let attempt = 0; ; attempt += 1) {
    const page = await productPage(request, '', handle, cookie);
    if (kept(page) || attempt === 4) {
      expect(kept(page), `${handle} served as kept`).toBe(true);
      return page;
    }
  }
}

/**
 * Where a document answer came from: `stored` (the database), else the cached route (rendered
 * for it now or earlier), whose key's path is then answered.
 */
function cachedKey(headers: Record<string, string> | undefined): string {
  if (headers?.['x-page-source'] === 'stored') return 'stored';
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

test.describe('two instances on one database', () => {
  // A consistent copy of the e2e database: the changes here never reach other specs. Both
  // instances serve one public origin, as behind a load balancer, so they share kept pages,
  // and render them ahead (the default).
  test.describe.configure({ mode: 'serial', timeout: 180_000 });
  const scratch = mkdtempSync(join(tmpdir(), 'sd-pages-'));
  const SHOP = 'http://shop.test';
  let a: Instance;
  let b: Instance;
  let database: Connection;

  let stop: (() => Promise<void>) | undefined;

  test.beforeAll(async () => {
    ({ a, b, database, stop } = await twoInstancesOnACopy(scratch, { SITE_API_CREDENTIAL: creds().storefront, STOREFRONT_ORIGIN: SHOP }));
  });
  test.afterAll(async () => {
    await stop?.();
    rmSync(scratch, { recursive: true, force: true });
  });

  /**
   * The storefront's Site (the demo): its published products, and the pages kept for its
   * default market and language at its current catalog version.
   */
  async function renderedAhead(): Promise<{ published: number; kept: number }> {
    const published = Number(
      (
        await database.execute(
          "SELECT COUNT(*) AS n FROM products p JOIN sites ON sites.id = p.site_id WHERE sites.handle = 'demo' AND p.status = 'published'",
        )
      ).rows[0]!.n,
    );
    const kept = Number(
      (
        await database.execute({
          sql: `SELECT COUNT(*) AS n FROM stored_pages s JOIN sites ON sites.id = s.site_id
        WHERE sites.handle = 'demo' AND s.origin = ? AND s.market = 'se' AND s.locale = 'sv-SE'
          AND s.catalog_version >= coalesce((SELECT max(c.version) FROM catalog_changes c
            WHERE c.site_id = s.site_id AND c.scope IN ('product:' || s.handle, 'site')), 0)`,
          args: [SHOP],
        })
      ).rows[0]!.n,
    );
    return { published, kept };
  }

  test('every product page is rendered ahead, once, and served by both without a render', async ({ request }) => {
    // Nobody has asked for a page yet: the instances render them ahead of shoppers.
    await expect
      .poll(
        async () => {
          const r = await renderedAhead();
          return r.kept === r.published && r.kept > 0;
        },
        { timeout: 150_000 },
      )
      .toBe(true);
    const handle = 'hygge-wool-rug';
    const [fromA, fromB] = [await productPage(request, a.baseURL, handle, ''), await productPage(request, b.baseURL, handle, '')];
    for (const page of [fromA, fromB]) {
      expect(page.status).toBe(200);
      expect(page.source).toBe('stored');
      expect(page.html.startsWith('<!DOCTYPE html><html lang="sv-SE">')).toBe(true);
      // Its URLs are the shop's, whichever instance rendered it.
      expect(page.html).toContain(`<link rel="canonical" href="${SHOP}/products/${handle}"/>`);
    }
    expect(fromB.html).toBe(fromA.html);

    // Gzipped to a client that takes it (once: the database's copy is gzipped too), plain to
    // one that does not: the same page.
    const gzipped = await fetch(`${a.baseURL}/products/${handle}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(gzipped.headers.get('content-encoding')).toBe('gzip');
    expect(await gzipped.text()).toBe(fromA.html);
    const plain = await fetch(`${a.baseURL}/products/${handle}`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('x-page-source')).toBe('stored');
    expect(await plain.text()).toBe(fromA.html);

    // A stock sync that leaves every status as it was keeps every kept page.
    const version = async () => Number((await database.execute("SELECT catalog_version AS v FROM sites WHERE handle = 'demo'")).rows[0]!.v);
    const before = await version();
    const synced = await database.execute('UPDATE inventory_levels SET quantity = quantity + 1 WHERE quantity > low_stock_threshold');
    expect(synced.rowsAffected).toBeGreaterThan(10);
    expect(await version()).toBe(before);
    expect((await productPage(request, b.baseURL, handle, '')).source).toBe('stored');
    expect(await renderedAhead()).toMatchObject({ kept: (await renderedAhead()).published });

    // Client-side navigation asks for the page's React payload, never for the kept HTML.
    const payload = await fetch(`${a.baseURL}/products/${handle}?_rsc=1`, { headers: { RSC: '1' } });
    expect(payload.headers.get('x-page-source')).toBeNull();
    expect(payload.headers.get('content-type')).toContain('text/x-component');
  });

  test('after a price change, only what shows the product is rendered again; every other page is kept', async ({ request }) => {
    await expect
      .poll(
        async () => {
          const r = await renderedAhead();
          return r.kept === r.published && r.kept > 0;
        },
        { timeout: 150_000 },
      )
      .toBe(true);
    const pages = async () =>
      new Map(
        (
          await database.execute({
            sql: `SELECT s.handle, s.stored_at, s.catalog_version, s.reads FROM stored_pages s JOIN sites ON sites.id = s.site_id
        WHERE sites.handle = 'demo' AND s.origin = ? AND s.market = 'se' AND s.locale = 'sv-SE'`,
            args: [SHOP],
          })
        ).rows.map((r) => [
          String(r.handle),
          { storedAt: Number(r.stored_at), version: Number(r.catalog_version), reads: r.reads === null ? null : String(r.reads) },
        ]),
      );
    const changed = 'hygge-wool-rug';
    // Its neighbour shows it under "More from Living room"; the bottle's page shows nothing of it.
    const read = async (path: string) =>
      (await request.get(`${a.baseURL}/site/v1${path}`, { headers: { Authorization: `Bearer ${creds().core}` } })).json();
    const related = (await read('/commerce/products?collection=living-room&limit=5&market=se&locale=sv-SE')) as {
      data: { handle: string }[];
    };
    expect(related.data.map((p) => p.handle)).toContain(changed);
    // A page shows the first collection of its product.
    const firstCollections = await Promise.all(
      related.data.map(async (p) => ({
        handle: p.handle,
        first: Product.parse(await read(`/commerce/products/${p.handle}?market=se&locale=sv-SE`)).collections[0]?.handle,
      })),
    );
    const neighbour = firstCollections.find((p) => p.handle !== changed && p.first === 'living-room')!.handle;
    const unrelated = 'trail-steel-bottle';
    const before = await pages();
    // Every page knows what it was made from: the Site, the navigation, the product, its neighbours.
    const reads = JSON.parse(before.get(unrelated)!.reads!) as Record<string, string>;
    expect(Object.keys(reads).sort()).toEqual([
      `/commerce/products/${unrelated}?market=se&locale=sv-SE`,
      '/commerce/products?market=se&locale=sv-SE&limit=5&collection=outdoor',
      '/commerce/storefront?market=se&locale=sv-SE',
      '/site',
    ]);
    const unrelatedHtml = (await productPage(request, a.baseURL, unrelated, '')).html;

    await database.execute({
      sql: `UPDATE variant_prices SET amount = amount + 10000 WHERE market_id = 'se'
        AND variant_id IN (SELECT v.id FROM product_variants v JOIN products p ON p.id = v.product_id WHERE p.handle = ?)`,
      args: [changed],
    });
    // The unrelated page, on either instance: the same bytes, from the database, not rendered.
    for (const instance of [b, a]) {
      const view = await productPage(request, instance.baseURL, unrelated, '');
      expect(view.source).toMatch(/^(revalidated|stored)$/);
      expect(view.html).toBe(unrelatedHtml);
    }

    // Rendered ahead after the change: the changed product's page alone.
    await expect
      .poll(
        async () => {
          const r = await renderedAhead();
          return r.kept === r.published;
        },
        { timeout: 150_000 },
      )
      .toBe(true);
    const after = await pages();
    const rendered = [...after].filter(([handle, kept]) => kept.storedAt !== before.get(handle)?.storedAt).map(([handle]) => handle);
    expect(rendered).toEqual([changed]);
    expect(after.get(unrelated)!.version).toBe(before.get(unrelated)!.version);
    // Its neighbour shows it among related products: that read answers differently now, so
    // its next view is rendered anew, and the unrelated page is still served as kept.
    expect((await productPage(request, a.baseURL, neighbour, '')).source).toBeUndefined();
    expect((await productPage(request, a.baseURL, unrelated, '')).source).toBe('revalidated');
  });

  test('a catalog change is on the very next page view of every instance', async ({ request }) => {
    const handle = 'glacier-dinner-plate';
    for (const instance of [a, b]) {
      const first = await productPage(request, instance.baseURL, handle);
      expect(first.status).toBe(200);
      expect(heading(first.html)).toBe('Glacier Dinner Plate');
      // The second view renders nothing: it is kept, by this instance or the other.
      expect(kept(await productPage(request, instance.baseURL, handle))).toBe(true);
    }
    const white = (
      await database.execute({
        sql: "SELECT v.sku, v.id FROM product_variants v JOIN products p ON p.id = v.product_id WHERE p.handle = ? AND v.title = 'White'",
        args: [handle],
      })
    ).rows[0] as unknown as { sku: string; id: string };
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
      // …and the new page is kept in turn.
      expect(kept(await productPage(request, instance.baseURL, handle))).toBe(true);
    }
    // Every other page is rendered ahead again for the new catalog version.
    await expect
      .poll(
        async () => {
          const r = await renderedAhead();
          return r.kept === r.published;
        },
        { timeout: 150_000 },
      )
      .toBe(true);

    // Unpublished: the next view is the shop's 404, on both.
    await database.execute({ sql: "UPDATE products SET status = 'draft' WHERE handle = ?", args: [handle] });
    for (const instance of [a, b]) {
      const page = await productPage(request, instance.baseURL, handle);
      expect(page.status).toBe(404);
      expect(structured(page.html).name).toBeUndefined();
    }
  });
});

test.describe('a kept page of an older catalog version', () => {
  test('is checked and served by the proxy when its reads answer the same, and rendered when not', async ({ request, page, context }) => {
    test.slow();
    // One instance on a copy, rendering nothing ahead: every answer below is the proxy's own.
    const scratch = mkdtempSync(join(tmpdir(), 'sd-revalidate-'));
    const url = await copyDatabase(mainDatabaseUrl(), join(scratch, 'site.db'));
    const database = rawClient(url);
    const server = await startOwnServer({ DATABASE_URL: url, SITE_API_CREDENTIAL: creds().storefront });
    try {
      const [kept, changed] = ['trail-steel-bottle', 'hygge-wool-rug'];
      for (const handle of [kept, changed]) {
        expect((await productPage(request, server.url, handle, '')).source).toBeUndefined();
        // Kept in the database just after the render's answer: wait for it, however busy the host.
        await expect.poll(async () => (await productPage(request, server.url, handle, '')).source, { timeout: 30_000 }).toBe('stored');
      }
      const before = (await productPage(request, server.url, kept, '')).html;
      await database.execute({
        sql: `UPDATE variant_prices SET amount = amount + 10000 WHERE market_id = 'se'
          AND variant_id IN (SELECT v.id FROM product_variants v JOIN products p ON p.id = v.product_id WHERE p.handle = ?)`,
        args: [changed],
      });
      const checked = await productPage(request, server.url, kept, '');
      expect(checked.source).toBe('revalidated');
      expect(checked.html).toBe(before);
      // Kept as it is: every later view checks it again, without a request for what names its scopes.
      expect((await productPage(request, server.url, kept, '')).source).toBe('revalidated');
      // The changed product's own page is rendered anew.
      expect((await productPage(request, server.url, changed, '')).source).toBeUndefined();

      // The kept page's React payload names the older catalog version; the router goes on
      // from it to a page of the new one, as from any page loaded before a change.
      await context.addCookies([
        { name: 'market', value: 'se', url: server.url },
        { name: 'locale', value: 'sv-SE', url: server.url },
      ]);
      const opened = await page.goto(`${server.url}/products/${kept}`);
      expect(opened?.headers()['x-page-source']).toBe('revalidated');
      const next = page.locator('section.related a[href^="/products/"]').first();
      const target = (await next.getAttribute('href'))!;
      await next.click();
      await expect(page).toHaveURL(`${server.url}${target}`);
      const title = Product.parse(
        await (await get(request, `${target.replace('/products/', '/commerce/products/')}?market=se&locale=sv-SE`)).json(),
      ).title;
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
    } finally {
      await server.stop();
      database.close();
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});

test.describe('cached product pages', () => {
  test('junk cookies map to the Site defaults, and internal paths are not reachable', async ({ request }) => {
    // HEAD is never answered from the database, so it always shows the key it was rewritten to.
    const keyOf = async (cookie: string) =>
      (await request.head('/products/hygge-wool-rug', { headers: cookie ? { Cookie: cookie } : {} })).headers()['x-middleware-rewrite'];
    const plain = await keyOf('');
    expect(plain).toMatch(/^\/storefront-cache\/[A-Za-z0-9_-]+\/se\/sv-SE\/site_[A-Za-z0-9]+\.\d+\/products\/hygge-wool-rug$/);
    // Unknown market or locale: the defaults, exactly as the page itself would choose them.
    expect(await keyOf('market=zz; locale=xx-YY')).toBe(plain);
    // A locale the market does not offer: that market's default locale.
    expect(await keyOf('market=de; locale=sv-SE')).toBe(plain!.replace('/se/sv-SE/', '/de/de-DE/'));
    const de = await productPage(request, '', 'hygge-wool-rug', 'market=de; locale=sv-SE');
    expect(de.html.startsWith('<!DOCTYPE html><html lang="de-DE">')).toBe(true);
    // The cache key is only ever made by the proxy.
    expect((await request.get(plain!, { failOnStatusCode: false })).status()).toBe(404);
  });

  test('without STOREFRONT_ORIGIN, only this machine’s own names are kept in the database', async ({ request }) => {
    // The origin comes from the request then: a made-up host is rendered (and kept in
    // memory), but never written to the database.
    const headers = { 'X-Forwarded-Host': 'made-up.example', Cookie: 'market=se; locale=en-SE' };
    const views = [];
    for (let i = 0; i < 3; i += 1) {
      const res = await request.get('/products/fjord-ceramic-mug', { headers });
      expect(res.status()).toBe(200);
      expect((await res.text()).includes('//made-up.example/products/fjord-ceramic-mug'), 'URLs of the made-up origin').toBe(true);
      views.push(res.headers());
    }
    expect(views.map((h) => h['x-page-source'])).toEqual([undefined, undefined, undefined]);
    expect(views[2]!['x-nextjs-cache']).toBe('HIT');
    // This machine's own name is kept.
    await cachedPage(request, 'fjord-ceramic-mug', 'market=se; locale=en-SE');
    expect((await productPage(request, '', 'fjord-ceramic-mug')).source).toBe('stored');
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
    expect(cachedKey(first?.headers())).toMatch(/^stored$|\/se\/en-SE\//);
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
    expect(cachedKey(again?.headers())).toMatch(/^stored$|\/de\/en-DE\//);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en-DE');
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
    expect(cachedKey(res?.headers())).toMatch(/^stored$|\/se\/en-SE\/[^/]+\/products\/fjord-ceramic-mug$/);
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

  test('a cached page prefetches nothing, and a related product still opens in place', async ({ page, context, request }) => {
    // No page of the shop can be prefetched in advance (docs/storefront.md): a prefetch brings
    // the route's tree, the click fetches the page all the same.
    const handle = 'fjord-ceramic-mug';
    await cachedPage(request, handle, 'market=se; locale=en-SE');
    await useLocale(context);
    const ahead: string[] = [];
    page.on('request', (r) => {
      if (r.headers()['next-router-prefetch']) ahead.push(new URL(r.url()).pathname);
    });
    // Hydrated once the header shows the cart's count: from here the router prefetches any
    // link it may, in view or hovered.
    await openProduct(page, `/products/${handle}`);
    const related = page.getByRole('region', { name: /^More from / }).getByRole('link');
    expect(await related.count()).toBeGreaterThan(0);
    for (const link of await related.all()) await link.hover();
    for (const link of await page.getByRole('contentinfo').getByRole('link').all()) await link.hover();
    await page.waitForLoadState('networkidle');
    expect(ahead).toEqual([]);
    // Nor the confirmation's link to the cart (under the other root layout: a plain link).
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await page.getByRole('link', { name: 'View cart' }).hover();
    await page.waitForLoadState('networkidle');
    expect(ahead).toEqual([]);
    // A related product's page is under the same root layout: it opens without a new document.
    await page.evaluate(() => Object.assign(window, { stayed: true }));
    const other = related.first();
    const href = (await other.getAttribute('href'))!.split('?')[0];
    const name = (await other.getByRole('heading').textContent())!;
    await other.click();
    await expect(page).toHaveURL((url) => url.pathname === href);
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    expect(await page.evaluate(() => (window as { stayed?: boolean }).stayed)).toBe(true);
    await page.getByRole('contentinfo').getByRole('link', { name: 'Shipping' }).click();
    await expect(page).toHaveURL(/\/shipping$/);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  });

  test('a page rendered on request prefetches nothing, and its links still navigate in place', async ({ context }) => {
    // Such a page's prefetch would bring only its route tree and title (no loading boundary,
    // no prerender): the click waits for the server either way, so it is not asked for.
    test.slow();
    await useLocale(context);
    for (const path of ['/', '/collections/kitchen', '/cart']) {
      const page = await context.newPage();
      const ahead: string[] = [];
      page.on('request', (r) => {
        if (r.headers()['next-router-prefetch']) ahead.push(new URL(r.url()).pathname);
      });
      await page.goto(path);
      // Hydrated: from here the router prefetches any link it may, in view or hovered.
      await typeUntilSuggested(page, 'mug');
      await page.keyboard.press('Escape');
      const nav = page.locator('header .main-nav a');
      for (const link of await nav.all()) await link.hover();
      const footer = page.getByRole('contentinfo');
      await footer.scrollIntoViewIfNeeded();
      for (const link of await footer.getByRole('link').all()) await link.hover();
      if (path !== '/cart') {
        const cards = page.locator('.product-card a');
        expect(await cards.count(), path).toBeGreaterThan(0);
        await cards.last().scrollIntoViewIfNeeded();
      }
      await page.waitForLoadState('networkidle');
      expect(ahead, path).toEqual([]);
      // The header's links are next/link all the same: a click navigates without a new document.
      await page.evaluate(() => Object.assign(window, { stayed: true }));
      await nav.filter({ hasText: 'Textiles' }).click();
      await expect(page).toHaveURL(/\/collections\/textiles$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Textiles' })).toBeVisible();
      expect(await page.evaluate(() => (window as { stayed?: boolean }).stayed), path).toBe(true);
      await page.close();
    }
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
    expect(cachedKey(again?.headers())).toMatch(/^stored$|\/products\/fjord-ceramic-mug$/);
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
  test('0 turns the cache off, PAGE_STORE=off the database: every view renders', async ({ request }) => {
    const server = await startOwnServer({ SITE_API_CREDENTIAL: creds().storefront, PAGE_CACHE_MB: '0', PAGE_STORE: 'off' });
    try {
      const views = [];
      for (let i = 0; i < 3; i += 1) views.push(await productPage(request, server.url, 'fjord-ceramic-mug'));
      expect(views.map((v) => v.status)).toEqual([200, 200, 200]);
      expect(views.map((v) => v.cache)).not.toContain('HIT');
      expect(views.map((v) => v.source)).not.toContain('stored');
      expect(heading(views[2]!.html)).toBeTruthy();
    } finally {
      await server.stop();
    }
  });

  test('a value that is not a size stops the server with a message that names it', async () => {
    await expect(startOwnServer({ SITE_API_CREDENTIAL: creds().storefront, PAGE_CACHE_MB: '16MB' })).rejects.toThrow(
      /PAGE_CACHE_MB must be a whole number/,
    );
  });
});
