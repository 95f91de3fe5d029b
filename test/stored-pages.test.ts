import { rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sites } from '@/db/schema';
import {
  dropDeadPages,
  handlesToRender,
  PAGE_BUILD,
  plainHtml,
  storedAddresses,
  storedPage,
  storePage,
  type PageAddress,
} from '@/lib/storefront/stored-pages';
import { cachedProductPath, encodeOrigin, parseCachedProductPath, type PageKey } from '@/lib/storefront/routing';
import { freshDatabase, type TestDatabase } from './support/database';
import { closeDatabase, execute } from '@/db';
import { logger } from '@/lib/platform/observability/logger';

// lib/storefront/kept-pages is server-only; this test is the server.
vi.mock('server-only', () => ({}));

// Product pages are kept in the database once rendered and served without rendering. A
// kept page must never answer for another catalog version or another build, and what
// rendering ahead asks for must be exactly what is missing.

describe('the cache key a rendered page arrives with', () => {
  const key: PageKey = { origin: 'https://shop.example.com', market: 'se', locale: 'en-SE', siteId: 'site_abc', catalogVersion: 42 };

  it('reads back the key and handle the proxy wrote', () => {
    expect(parseCachedProductPath(cachedProductPath(key, 'fjord-ceramic-mug'))).toEqual({ key, handle: 'fjord-ceramic-mug' });
    expect(parseCachedProductPath(cachedProductPath({ ...key, siteId: 'site.with.dots' }, 'x'))?.key.siteId).toBe('site.with.dots');
  });

  it('refuses anything else', () => {
    const origin = encodeOrigin(key.origin);
    for (const path of [
      '/storefront-cache',
      `/storefront-cache/${origin}/se/en-SE/site_abc.42/products`,
      `/storefront-cache/${origin}/se/en-SE/site_abc.42/collections/x`,
      `/storefront-cache/${origin}/se/en-SE/site_abc/products/x`,
      `/storefront-cache/${origin}/se/en-SE/site_abc.4x/products/x`,
      `/storefront-cache/not-an-origin!/se/en-SE/site_abc.42/products/x`,
      `/storefront-cache/${origin}/se/en-SE/site_abc.42/products/x/y`,
      `/other/${origin}/se/en-SE/site_abc.42/products/x`,
      `/storefront-cache/${origin}/se/%E0%A4%A/site_abc.42/products/x`,
    ]) {
      expect(parseCachedProductPath(path), path).toBeNull();
    }
  });
});

describe('pages kept in the database', () => {
  let t: TestDatabase;
  let siteId: string;
  let handles: string[];
  const at = (siteId: string) => ({ siteId, origin: 'http://127.0.0.1:3000', market: 'se', locale: 'en-SE' });

  beforeAll(async () => {
    t = await freshDatabase();
    siteId = (await t.database.select({ id: sites.id }).from(sites))[0]!.id;
    const rows = await execute(t.database, {
      sql: "SELECT handle FROM products WHERE site_id = ? AND status = 'published' ORDER BY handle",
      args: [siteId],
    });
    handles = rows.rows.map((r) => String(r.handle));
    expect(handles.length).toBeGreaterThan(5);
  });
  afterAll(() => {
    closeDatabase(t.database);
    rmSync(t.dir, { recursive: true, force: true });
  });

  it('answers a page for its own address and catalog version only, gzipped, with its policy', async () => {
    const address: PageAddress = { ...at(siteId), handle: handles[0]! };
    const html = `<!DOCTYPE html><html><body>${'é'.repeat(5000)}</body></html>`;
    await storePage(t.database, address, 7, html, "script-src 'self'");

    const page = await storedPage(t.database, address);
    expect(page?.policy).toBe("script-src 'self'");
    expect(page?.catalogVersion).toBe(7);
    expect(page?.reads).toBeNull();
    expect(gunzipSync(page!.gzipped).toString('utf8')).toBe(html);
    expect(plainHtml(page!).toString('utf8')).toBe(html);
    expect(page!.gzipped.byteLength).toBeLessThan(Buffer.byteLength(html) / 10);

    for (const other of [
      { market: 'de' },
      { locale: 'sv-SE' },
      { origin: 'http://localhost:3000' },
      { handle: handles[1]! },
      { siteId: 'site_other' },
    ]) {
      expect(await storedPage(t.database, { ...address, ...other }), JSON.stringify(other)).toBeNull();
    }

    // A new render of the address replaces it.
    await storePage(t.database, address, 8, '<p>new</p>', "script-src 'none'", '{"/site":"\\"a\\""}');
    const replaced = await storedPage(t.database, address);
    expect(replaced?.catalogVersion).toBe(8);
    expect(replaced?.reads).toBe('{"/site":"\\"a\\""}');
    expect(plainHtml(replaced!).toString()).toBe('<p>new</p>');
    const count = await execute(t.database, { sql: 'SELECT COUNT(*) AS n FROM stored_pages WHERE handle = ?', args: [handles[0]!] });
    expect(Number(count.rows[0]!.n)).toBe(1);
  });

  it('never answers a page of another build, nor replaces one', async () => {
    const address: PageAddress = { ...at(siteId), handle: handles[2]! };
    await storePage(t.database, address, 9, '<p>ours</p>', 'p');
    await execute(t.database, { sql: "UPDATE stored_pages SET build = 'another-build' WHERE handle = ?", args: [handles[2]!] });
    expect(PAGE_BUILD).not.toBe('another-build');
    expect(await storedPage(t.database, address)).toBeNull();
    // During a deploy both builds serve the address: neither replaces the other's page.
    await storePage(t.database, address, 10, '<p>this build</p>', 'p');
    expect(plainHtml((await storedPage(t.database, address))!).toString()).toBe('<p>this build</p>');
    const kept = await execute(t.database, { sql: 'SELECT build FROM stored_pages WHERE handle = ? ORDER BY build', args: [handles[2]!] });
    expect(kept.rows.map((r) => String(r.build))).toEqual(['another-build', PAGE_BUILD].sort());
  });

  it('lists the pages an address lacks or whose product changed since, in handle order, from a cursor', async () => {
    await execute(t.database, 'DELETE FROM stored_pages');
    const address = at(siteId);
    expect(await handlesToRender(t.database, address, '', 1000)).toEqual(handles);
    const version = async () =>
      Number((await execute(t.database, { sql: 'SELECT catalog_version AS v FROM sites WHERE id = ?', args: [siteId] })).rows[0]!.v);
    const now = await version();
    await storePage(t.database, { ...address, handle: handles[1]! }, now, 'x', 'p');
    await storePage(t.database, { ...address, handle: handles[2]! }, now, 'x', 'p');
    await storePage(t.database, { ...address, handle: handles[3]! }, 2, 'x', 'p'); // older than its product's last change
    await storePage(t.database, { ...address, market: 'de', handle: handles[4]! }, now, 'x', 'p'); // another address does not count
    const missing = handles.filter((h) => h !== handles[1] && h !== handles[2]);
    expect(await handlesToRender(t.database, address, '', 1000)).toEqual(missing);
    expect(await handlesToRender(t.database, address, '', 2)).toEqual(missing.slice(0, 2));
    expect(await handlesToRender(t.database, address, handles[2]!, 1000)).toEqual(handles.slice(3));

    // A price change to one product: its page is to be rendered again, the others' are not.
    await execute(t.database, {
      sql: `UPDATE variant_prices SET amount = amount + 1 WHERE variant_id IN (
        SELECT v.id FROM product_variants v JOIN products p ON p.id = v.product_id WHERE p.site_id = ? AND p.handle = ?)`,
      args: [siteId, handles[1]!],
    });
    expect(await version()).toBeGreaterThan(now);
    expect(await handlesToRender(t.database, address, '', 1000)).toEqual([handles[0]!, handles[1]!, ...handles.slice(3)]);

    // Unpublished products have no page to render.
    await execute(t.database, { sql: "UPDATE products SET status = 'draft' WHERE handle = ?", args: [handles[5]!] });
    expect(await handlesToRender(t.database, address, '', 1000)).not.toContain(handles[5]);
  });

  it('knows the addresses shoppers asked at, the most asked first', async () => {
    const addresses = await storedAddresses(t.database, siteId, 10);
    expect(addresses).toEqual([
      { siteId, origin: 'http://127.0.0.1:3000', market: 'se', locale: 'en-SE' },
      { siteId, origin: 'http://127.0.0.1:3000', market: 'de', locale: 'en-SE' },
    ]);
    expect(await storedAddresses(t.database, siteId, 1)).toHaveLength(1);
  });

  it('drops pages that can never be served again, and keeps those an address may need', async () => {
    const address = at(siteId);
    await execute(t.database, 'DELETE FROM stored_pages');
    await storePage(t.database, { ...address, handle: handles[0]! }, 3, 'x', 'p'); // current
    await storePage(t.database, { ...address, handle: handles[1]! }, 2, 'x', 'p'); // an older version: kept
    await storePage(t.database, { ...address, handle: handles[5]! }, 3, 'x', 'p'); // unpublished above: dropped
    await storePage(t.database, { ...address, handle: handles[2]! }, 3, 'x', 'p');
    await storePage(t.database, { ...address, handle: handles[3]! }, 3, 'x', 'p');
    // Another build's pages: kept through the grace period, dropped after it.
    await execute(t.database, {
      sql: "UPDATE stored_pages SET build = 'old', stored_at = ? WHERE handle = ?",
      args: [Date.now() - 3_600_000, handles[2]!],
    });
    await execute(t.database, {
      sql: "UPDATE stored_pages SET build = 'old', stored_at = ? WHERE handle = ?",
      args: [Date.now(), handles[3]!],
    });

    expect(await dropDeadPages(t.database, siteId, 600_000)).toBe(2);
    const left = await execute(t.database, 'SELECT handle FROM stored_pages ORDER BY handle');
    expect(left.rows.map((r) => String(r.handle))).toEqual([handles[0], handles[1], handles[3]]);
  });
});

describe('the proxy’s side: keeping a rendered page, answering a kept one', () => {
  let t: TestDatabase;
  let store: typeof import('@/lib/storefront/kept-pages');
  let pageReads: typeof import('@/lib/storefront/page-reads');
  let client: typeof import('@/lib/site-client');
  let key: PageKey;
  const html = '<!DOCTYPE html><html lang="sv-SE"><body><h1>Fjord Ceramic Mug</h1></body></html>';
  // A stand-in for the API the pages read (the e2e tests use the real one): its answers'
  // ETags by path, 304 to a request that names the current one, and every request it got.
  const answers = new Map<string, { etag?: string; status?: number; body?: unknown }>();
  const asked: { path: string; ifNoneMatch?: string; authorization?: string }[] = [];
  const api = createServer((req, res) => {
    const path = (req.url ?? '').replace(/^\/site\/v1/, '');
    asked.push({ path, ifNoneMatch: req.headers['if-none-match'], authorization: req.headers.authorization });
    const answer = answers.get(path) ?? { status: 404 };
    if (answer.etag && req.headers['if-none-match'] === answer.etag) res.writeHead(304, { ETag: answer.etag }).end();
    else if (answer.etag)
      res.writeHead(200, { ETag: answer.etag, 'Content-Type': 'application/json' }).end(JSON.stringify(answer.body ?? {}));
    else res.writeHead(answer.status!, { 'Content-Type': 'application/problem+json' }).end('{}');
  });

  beforeAll(async () => {
    t = await freshDatabase();
    const siteId = (await t.database.select({ id: sites.id }).from(sites))[0]!.id;
    key = { origin: 'http://127.0.0.1:3000', market: 'se', locale: 'sv-SE', siteId, catalogVersion: 5 };
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    // lib/env reads the environment once, on first use: set it before the module runs.
    Object.assign(process.env, {
      DATABASE_URL: t.url,
      PORT: '3000',
      PAGE_STORE: 'on',
      SITE_API_CREDENTIAL: 'sk_pages_test',
      SITE_API_BASE_URL: `http://127.0.0.1:${(api.address() as AddressInfo).port}`,
    });
    delete process.env.STOREFRONT_ORIGIN;
    store = await import('@/lib/storefront/kept-pages');
    pageReads = await import('@/lib/storefront/page-reads');
    client = await import('@/lib/site-client');
  });
  afterAll(() => {
    api.close();
    closeDatabase(t.database);
    rmSync(t.dir, { recursive: true, force: true });
  });

  it('keeps what Next’s page cache hands it, under the key in the path', async () => {
    // Next 16 puts its own parts before the path it caches the page under.
    store.keepRenderedPage(`/route-cache/APP_PAGE/0a1b/$${cachedProductPath(key, 'fjord-ceramic-mug')}`, html, "script-src 'self'");
    await vi.waitFor(async () => expect(await storedPage(t.database, { ...key, handle: 'fjord-ceramic-mug' })).not.toBeNull());

    const answer = await store.storedPageAnswer(key, 'fjord-ceramic-mug', { 'Strict-Transport-Security': 'max-age=1' });
    expect(answer?.status).toBe(200);
    expect(await answer!.text()).toBe(html);
    expect(Object.fromEntries(answer!.headers)).toMatchObject({
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'private, no-cache, no-store, max-age=0, must-revalidate',
      'content-security-policy': "script-src 'self'",
      'x-page-source': 'stored',
      'strict-transport-security': 'max-age=1',
    });
    // Another catalog version (its reads unknown: nothing to check them by), another handle: nothing kept.
    expect(await store.storedPageAnswer({ ...key, catalogVersion: 6 }, 'fjord-ceramic-mug', {})).toBeNull();
    expect(await store.storedPageAnswer(key, 'hygge-wool-rug', {})).toBeNull();
  });

  it('keeps nothing for a made-up origin, nor anything that is no product page’s key', async () => {
    const madeUp = { ...key, origin: 'https://made-up.example' };
    expect(store.storesPagesOf(madeUp.origin)).toBe(false);
    expect(store.storesPagesOf('http://localhost:3000')).toBe(true);
    store.keepRenderedPage(cachedProductPath(madeUp, 'hygge-wool-rug'), html, 'p');
    store.keepRenderedPage('/route-cache/APP_PAGE/0a1b/$/products/hygge-wool-rug', html, 'p');
    store.keepRenderedPage(cachedProductPath(key, 'hygge-wool-rug'), html, '');
    // Those were refused at once, before any write began; this one is kept.
    store.keepRenderedPage(cachedProductPath(key, 'stoneware-serving-bowl'), html, 'p');
    await vi.waitFor(async () => expect(await storedPage(t.database, { ...key, handle: 'stoneware-serving-bowl' })).not.toBeNull());
    const rows = await execute(t.database, 'SELECT origin, handle FROM stored_pages ORDER BY handle');
    expect(rows.rows.map((r) => `${r.origin} ${r.handle}`)).toEqual([
      `${key.origin} fjord-ceramic-mug`,
      `${key.origin} stoneware-serving-bowl`,
    ]);
  });

  it('serves a page of an older catalog version while nothing it shows changed, checking by scope what names its scopes', async () => {
    const handle = 'hygge-wool-rug';
    const address = { ...key, handle };
    const version = async () => (await t.database.select({ v: sites.catalogVersion }).from(sites).where(eq(sites.id, key.siteId)))[0]!.v;
    const priceChange = (of: string) =>
      execute(t.database, {
        sql: `UPDATE variant_prices SET amount = amount + 1 WHERE variant_id IN (
          SELECT v.id FROM product_variants v JOIN products p ON p.id = v.product_id WHERE p.site_id = ? AND p.handle = ?)`,
        args: [key.siteId, of],
      });
    const at = { ...key, catalogVersion: await version() };
    const product = '/commerce/products/hygge-wool-rug?market=se&locale=sv-SE';
    answers.set('/storefront?market=se&locale=sv-SE', { etag: '"s1"' });
    // What a render logs: its reads and their answers' tags (a product names its scopes; a bundle item not published: 404).
    const log = new Map<string, string>();
    client.logReadsWith(() => log);
    client.noteRead(product, 'scopes:product:hygge-wool-rug,collection:living-room');
    client.noteRead('/storefront?market=se&locale=sv-SE', '"s1"');
    client.noteRead('/commerce/products/gone?market=se&locale=sv-SE', 'status:404');
    pageReads.renderingWith(pageReads.pageReadsId(at, `${at.siteId}.${at.catalogVersion}`, handle), log);
    store.keepRenderedPage(cachedProductPath(at, handle), html, 'p');
    await vi.waitFor(async () => expect((await storedPage(t.database, address))?.reads).toBeTruthy());

    // Another product's price changed: the product read is checked by its scopes (no request),
    // the others by a conditional read each, and the page is served as kept, left as it is.
    await priceChange('fjord-ceramic-mug');
    const later = { ...key, catalogVersion: await version() };
    expect(later.catalogVersion).toBeGreaterThan(at.catalogVersion);
    asked.length = 0;
    const answer = await store.storedPageAnswer(later, handle, {});
    expect(answer?.headers.get('x-page-source')).toBe('revalidated');
    expect(await answer!.text()).toBe(html);
    expect(asked.map((a) => `${a.path} ${a.ifNoneMatch ?? '-'}`).sort()).toEqual([
      '/commerce/products/gone?market=se&locale=sv-SE -',
      '/storefront?market=se&locale=sv-SE "s1"',
    ]);
    expect(asked.every((a) => a.authorization === 'Bearer sk_pages_test')).toBe(true);
    expect((await storedPage(t.database, address))?.catalogVersion).toBe(at.catalogVersion);
    // Under one version a read answers one way: what was found out is not asked again.
    asked.length = 0;
    expect((await store.storedPageAnswer(later, handle, {}))?.headers.get('x-page-source')).toBe('revalidated');
    expect(asked).toEqual([]);
    // Its own version needs no check at all.
    expect((await store.storedPageAnswer(at, handle, {}))?.headers.get('x-page-source')).toBe('stored');

    // A change to a collection the product names: rendered anew, told without a request.
    await execute(t.database, {
      sql: "UPDATE collection_translations SET title = title || ' ' WHERE collection_id IN (SELECT id FROM collections WHERE site_id = ? AND handle = 'living-room')",
      args: [key.siteId],
    });
    asked.length = 0;
    expect(await store.keptPage({ ...key, catalogVersion: await version() }, handle)).toBeNull();
    expect(asked).toEqual([]);
    client.logReadsWith(() => null);
  });

  it('renders anew a page whose other reads answer differently, or cannot be checked now', async () => {
    const handle = 'lofoten-cushion-cover';
    const version = async () => (await t.database.select({ v: sites.catalogVersion }).from(sites).where(eq(sites.id, key.siteId)))[0]!.v;
    const bump = () =>
      execute(t.database, {
        sql: "UPDATE products SET updated_at = updated_at + 1 WHERE site_id = ? AND handle = 'canvas-apron'",
        args: [key.siteId],
      });
    const at = { ...key, catalogVersion: await version() };
    const snapshot = '/storefront?market=se&locale=sv-SE&x=2';
    answers.set(snapshot, { etag: '"n1"' });
    await storePage(
      t.database,
      { ...at, handle },
      at.catalogVersion,
      html,
      'p',
      JSON.stringify({ [snapshot]: '"n1"', '/p': 'scopes:product:lofoten-cushion-cover' }),
    );
    await bump();
    expect((await store.keptPage({ ...key, catalogVersion: await version() }, handle))?.revalidated).toBe(true);
    // the navigation changed with the next version
    answers.set(snapshot, { etag: '"n2"' });
    await bump();
    expect(await store.keptPage({ ...key, catalogVersion: await version() }, handle)).toBeNull();
    // a refusal may pass: asked again, not remembered
    answers.set(snapshot, { status: 429 });
    await bump();
    const now = { ...key, catalogVersion: await version() };
    expect(await store.keptPage(now, handle)).toBeNull();
    answers.set(snapshot, { etag: '"n1"' });
    expect((await store.keptPage(now, handle))?.revalidated).toBe(true);
  });

  it('checks a read of which the page uses some fields by those fields alone', async () => {
    const path = '/commerce/storefront?market=se&locale=sv-SE';
    const snapshot = {
      version: '5',
      navigation: [{ handle: 'kitchen', title: 'Kök', productCount: 3, image: null }],
      markets: [{ id: 'se' }],
    };
    const tag = client.partTag(snapshot, ['navigation', 'markets']);
    // The same fields in another key order (the raw answer beside the parsed one): the same tag.
    expect(
      client.partTag({ markets: [{ id: 'se' }], navigation: [{ image: null, productCount: 3, title: 'Kök', handle: 'kitchen' }] }, [
        'navigation',
        'markets',
      ]),
    ).toBe(tag);
    const kept = JSON.stringify({ [path]: tag });
    answers.set(path, { etag: '"s6"', body: { ...snapshot, version: '6', featured: [{ handle: 'new' }] } });
    expect(await client.readsUnchanged(kept)).toBe(true);
    answers.set(path, { etag: '"s7"', body: { ...snapshot, navigation: [{ ...snapshot.navigation[0], productCount: 4 }] } });
    expect(await client.readsUnchanged(kept)).toBe(false);
  });

  it('keeps no reads it could not check again', () => {
    const log = new Map<string, string>();
    client.logReadsWith(() => log);
    client.noteRead('/site', '"a"');
    expect(client.serialiseReads(log)).toBe('{"/site":"\\"a\\""}');
    // The same path answered two ways within one render.
    client.noteRead('/site', '"b"');
    expect(client.serialiseReads(log)).toBeNull();
    expect(client.serialiseReads(new Map())).toBeNull();
    client.logReadsWith(() => null);

    // Two renders of one page at once: whose log is whose cannot be told.
    const id = pageReads.pageReadsId(key, 'site.1', 'x');
    const one = new Map([['/site', '"a"']]);
    pageReads.renderingWith(id, one);
    pageReads.renderingWith(id, one);
    expect(pageReads.readsOfRendered(id)).toBe('{"/site":"\\"a\\""}');
    expect(pageReads.readsOfRendered(id)).toBeNull();
    pageReads.renderingWith(id, one);
    pageReads.renderingWith(id, new Map(one));
    expect(pageReads.readsOfRendered(id)).toBeNull();
  });

  it('checks nothing it cannot read as a log of reads', async () => {
    for (const kept of ['', 'not json', '[]', '{}', '{"/site":5}', '{"site":"\\"a\\""}', '{"/site":"uncheckable"}']) {
      expect(await client.readsUnchanged(kept), kept).toBe(false);
    }
  });

  it('answers null, not an error, when the database cannot say (the page then renders)', async () => {
    const warn = vi.spyOn(logger(), 'warn').mockImplementation(() => {});
    await execute(t.database, 'DROP TABLE stored_pages');
    expect(await store.storedPageAnswer(key, 'fjord-ceramic-mug', {})).toBeNull();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('kept product pages could not be read'));
    warn.mockRestore();
  });
});
