import { rmSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sites } from '@/db/schema';
import {
  dropDeadPages, handlesWithoutPage, PAGE_BUILD, plainHtml, storedAddresses, storedPage, storePage, type PageAddress,
} from '@/lib/platform/cache/stored-pages';
import { cachedProductPath, encodeOrigin, parseCachedProductPath, type PageKey } from '@/lib/storefront-routing';
import { freshDatabase, type TestDatabase } from './support/database';

// lib/storefront-page-store is server-only; this test is the server.
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
    const rows = await t.database.$client.execute({ sql: "SELECT handle FROM products WHERE site_id = ? AND status = 'published' ORDER BY handle", args: [siteId] });
    handles = rows.rows.map((r) => String(r.handle));
    expect(handles.length).toBeGreaterThan(5);
  });
  afterAll(() => {
    t.database.$client.close();
    rmSync(t.dir, { recursive: true, force: true });
  });

  it('answers a page for its own address and catalog version only, gzipped, with its policy', async () => {
    const address: PageAddress = { ...at(siteId), handle: handles[0]! };
    const html = `<!DOCTYPE html><html><body>${'é'.repeat(5000)}</body></html>`;
    await storePage(t.database, address, 7, html, "script-src 'self'");

    const page = await storedPage(t.database, address, 7);
    expect(page?.policy).toBe("script-src 'self'");
    expect(gunzipSync(page!.gzipped).toString('utf8')).toBe(html);
    expect(plainHtml(page!).toString('utf8')).toBe(html);
    expect(page!.gzipped.byteLength).toBeLessThan(Buffer.byteLength(html) / 10);

    expect(await storedPage(t.database, address, 8)).toBeNull();
    for (const other of [{ market: 'de' }, { locale: 'sv-SE' }, { origin: 'http://localhost:3000' }, { handle: handles[1]! }, { siteId: 'site_other' }]) {
      expect(await storedPage(t.database, { ...address, ...other }, 7), JSON.stringify(other)).toBeNull();
    }

    // A new render of the address replaces it.
    await storePage(t.database, address, 8, '<p>new</p>', "script-src 'none'");
    expect(await storedPage(t.database, address, 7)).toBeNull();
    expect(plainHtml((await storedPage(t.database, address, 8))!).toString()).toBe('<p>new</p>');
    const count = await t.database.$client.execute({ sql: 'SELECT COUNT(*) AS n FROM stored_pages WHERE handle = ?', args: [handles[0]!] });
    expect(Number(count.rows[0]!.n)).toBe(1);
  });

  it('never answers a page of another build', async () => {
    const address: PageAddress = { ...at(siteId), handle: handles[2]! };
    await storePage(t.database, address, 9, '<p>ours</p>', 'p');
    await t.database.$client.execute({ sql: "UPDATE stored_pages SET build = 'another-build' WHERE handle = ?", args: [handles[2]!] });
    expect(PAGE_BUILD).not.toBe('another-build');
    expect(await storedPage(t.database, address, 9)).toBeNull();
  });

  it('lists what an address lacks for a version, in handle order, from a cursor', async () => {
    await t.database.$client.execute('DELETE FROM stored_pages');
    const address = at(siteId);
    expect(await handlesWithoutPage(t.database, address, 3, '', 1000)).toEqual(handles);
    await storePage(t.database, { ...address, handle: handles[1]! }, 3, 'x', 'p');
    await storePage(t.database, { ...address, handle: handles[3]! }, 2, 'x', 'p'); // an older version counts as missing
    await storePage(t.database, { ...address, market: 'de', handle: handles[4]! }, 3, 'x', 'p'); // another address does not count
    const missing = handles.filter((h) => h !== handles[1]);
    expect(await handlesWithoutPage(t.database, address, 3, '', 1000)).toEqual(missing);
    expect(await handlesWithoutPage(t.database, address, 3, '', 2)).toEqual(missing.slice(0, 2));
    expect(await handlesWithoutPage(t.database, address, 3, handles[2]!, 1000)).toEqual(handles.slice(3));

    // Unpublished products have no page to render.
    await t.database.$client.execute({ sql: "UPDATE products SET status = 'draft' WHERE handle = ?", args: [handles[5]!] });
    expect(await handlesWithoutPage(t.database, address, 3, '', 1000)).not.toContain(handles[5]);
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
    await t.database.$client.execute('DELETE FROM stored_pages');
    await storePage(t.database, { ...address, handle: handles[0]! }, 3, 'x', 'p'); // current
    await storePage(t.database, { ...address, handle: handles[1]! }, 2, 'x', 'p'); // an older version: kept
    await storePage(t.database, { ...address, handle: handles[5]! }, 3, 'x', 'p'); // unpublished above: dropped
    await storePage(t.database, { ...address, handle: handles[2]! }, 3, 'x', 'p');
    await storePage(t.database, { ...address, handle: handles[3]! }, 3, 'x', 'p');
    // Another build's pages: kept through the grace period, dropped after it.
    await t.database.$client.execute({ sql: "UPDATE stored_pages SET build = 'old', stored_at = ? WHERE handle = ?", args: [Date.now() - 3_600_000, handles[2]!] });
    await t.database.$client.execute({ sql: "UPDATE stored_pages SET build = 'old', stored_at = ? WHERE handle = ?", args: [Date.now(), handles[3]!] });

    expect(await dropDeadPages(t.database, siteId, 600_000)).toBe(2);
    const left = await t.database.$client.execute('SELECT handle FROM stored_pages ORDER BY handle');
    expect(left.rows.map((r) => String(r.handle))).toEqual([handles[0], handles[1], handles[3]]);
  });
});

describe('the proxy’s side: keeping a rendered page, answering a kept one', () => {
  let t: TestDatabase;
  let store: typeof import('@/lib/storefront-page-store');
  let key: PageKey;
  const html = '<!DOCTYPE html><html lang="sv-SE"><body><h1>Fjord Ceramic Mug</h1></body></html>';

  beforeAll(async () => {
    t = await freshDatabase();
    const siteId = (await t.database.select({ id: sites.id }).from(sites))[0]!.id;
    key = { origin: 'http://127.0.0.1:3000', market: 'se', locale: 'sv-SE', siteId, catalogVersion: 5 };
    // lib/env reads the environment once, on first use: set it before the module runs.
    Object.assign(process.env, { DATABASE_URL: t.url, PORT: '3000', PAGE_STORE: 'on' });
    delete process.env.STOREFRONT_ORIGIN;
    store = await import('@/lib/storefront-page-store');
  });
  afterAll(() => {
    t.database.$client.close();
    rmSync(t.dir, { recursive: true, force: true });
  });

  it('keeps what Next’s page cache hands it, under the key in the path', async () => {
    // Next 16 puts its own parts before the path it caches the page under.
    store.keepRenderedPage(`/route-cache/APP_PAGE/0a1b/$${cachedProductPath(key, 'fjord-ceramic-mug')}`, html, "script-src 'self'");
    await vi.waitFor(async () => expect(await storedPage(t.database, { ...key, handle: 'fjord-ceramic-mug' }, 5)).not.toBeNull());

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
    // Another catalog version, another handle: nothing kept.
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
    await vi.waitFor(async () => expect(await storedPage(t.database, { ...key, handle: 'stoneware-serving-bowl' }, 5)).not.toBeNull());
    const rows = await t.database.$client.execute('SELECT origin, handle FROM stored_pages ORDER BY handle');
    expect(rows.rows.map((r) => `${r.origin} ${r.handle}`)).toEqual([`${key.origin} fjord-ceramic-mug`, `${key.origin} stoneware-serving-bowl`]);
  });

  it('answers null, not an error, when the database cannot say (the page then renders)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await t.database.$client.execute('DROP TABLE stored_pages');
    expect(await store.storedPageAnswer(key, 'fjord-ceramic-mug', {})).toBeNull();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('kept product pages could not be read'));
    warn.mockRestore();
  });
});
