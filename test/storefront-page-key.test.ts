import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { closeDatabase, openDatabase, type Database } from '@/db';
import { migrateDatabase } from '@/db/migrate';
import { seedDatabase } from '@/db/seed';
import { productTranslations, products } from '@/db/schema';
import { createCredential, revokeCredential } from '@/lib/platform/auth/credentials';
import {
  cachedProductPath,
  chooseLocality,
  countryFrom,
  decodeOrigin,
  parseAcceptLanguage,
  encodeOrigin,
  parseOrigin,
  requestOrigin,
  type PageKey,
} from '@/lib/storefront/routing';

// lib/storefront/page-key is server-only; this test is the server.
vi.mock('server-only', () => ({}));

// The proxy serves a product page from Next's page cache under the key these functions
// make. A key must carry everything the page shows (so a catalog change is a new key at
// once) and nothing a shopper can vary at will (so junk cookies cannot make new pages).

const markets = [
  { id: 'se', locales: ['sv-SE', 'en-SE'], defaultLocale: 'sv-SE' },
  { id: 'de', locales: ['de-DE', 'en-DE'], defaultLocale: 'de-DE' },
];

describe('the market and locale a request shows', () => {
  it('is the cookie pair when the Site offers it', () => {
    expect(chooseLocality(markets, 'se', { market: 'de', locale: 'en-DE' })).toEqual({ market: markets[1], locale: 'en-DE' });
  });
  it('falls back to the Site default market, then that market’s default locale', () => {
    expect(chooseLocality(markets, 'se', {})).toEqual({ market: markets[0], locale: 'sv-SE' });
    expect(chooseLocality(markets, 'se', { market: 'xx', locale: 'en-SE' })).toEqual({ market: markets[0], locale: 'en-SE' });
    expect(chooseLocality(markets, 'se', { market: 'DE', locale: 'de-DE' })).toEqual({ market: markets[0], locale: 'sv-SE' });
    // a locale of another market is not this market's
    expect(chooseLocality(markets, 'se', { market: 'de', locale: 'sv-SE' })).toEqual({ market: markets[1], locale: 'de-DE' });
    // a default market the Site no longer has: its first market
    expect(chooseLocality(markets, 'gone', {})).toEqual({ market: markets[0], locale: 'sv-SE' });
    expect(chooseLocality([], 'se', {})).toBeNull();
  });
  it('maps any junk to one of the few pairs the Site offers', () => {
    const junk = ['', 'se ', '../de', 'de|de-DE', '\u0000', 'x'.repeat(5000)];
    const seen = new Set<string>();
    for (const market of junk)
      for (const locale of junk) {
        const choice = chooseLocality(markets, 'se', { market, locale })!;
        seen.add(`${choice.market.id}|${choice.locale}`);
      }
    expect([...seen]).toEqual(['se|sv-SE']);
  });
  it('follows the browser’s Accept-Language for the language within a market', () => {
    const first = (acceptLanguage: string, market?: string) => chooseLocality(markets, 'se', { market, acceptLanguage })!.locale;
    expect(first('en-US,en;q=0.9')).toBe('en-SE');
    // se offers no German: the next language asked for that it does offer
    expect(first('de-CH, de;q=0.8, en;q=0.5', 'se')).toBe('en-SE');
    expect(first('de-AT', 'de')).toBe('de-DE');
    expect(first('EN-de', 'de')).toBe('en-DE');
    // q order, not header order; q=0 means "not this one"
    expect(first('sv;q=0.4, en;q=0.9')).toBe('en-SE');
    expect(first('en;q=0, sv')).toBe('sv-SE');
    // only languages the market does not offer: its English rather than its default
    expect(first('fr-FR, ja')).toBe('en-SE');
    expect(first('fr', 'de')).toBe('en-DE');
    // nothing said, anything taken, or junk: the market's default
    expect(first('')).toBe('sv-SE');
    expect(first('fr, *;q=0.5')).toBe('sv-SE');
    expect(first('*, ;;;, en_US, x'.repeat(500))).toBe('sv-SE');
  });
  it('lets the locale cookie win over Accept-Language', () => {
    expect(chooseLocality(markets, 'se', { locale: 'sv-SE', acceptLanguage: 'en' })!.locale).toBe('sv-SE');
    // a cookie the market does not offer falls to Accept-Language, then the default
    expect(chooseLocality(markets, 'se', { locale: 'de-DE', acceptLanguage: 'en' })!.locale).toBe('en-SE');
  });
});

describe('the market of a first visit', () => {
  // As the demo Site has them: the default market se sells to SE, de to DE and AT, us to US.
  const sold = [
    { id: 'se', countries: ['SE'], locales: ['sv-SE', 'en-SE'], defaultLocale: 'sv-SE' },
    { id: 'de', countries: ['DE', 'AT'], locales: ['de-DE', 'en-DE'], defaultLocale: 'de-DE' },
    { id: 'us', countries: ['US'], locales: ['en-US'], defaultLocale: 'en-US' },
  ];
  const pair = (wanted: Parameters<typeof chooseLocality>[2]) => {
    const choice = chooseLocality(sold, 'se', wanted)!;
    return `${choice.market.id}|${choice.locale}`;
  };

  it('is the market of the browser’s region, then of its language, else the default', () => {
    expect(pair({ acceptLanguage: 'de-AT' })).toBe('de|de-DE');
    expect(pair({ acceptLanguage: 'de-DE,de;q=0.9,en;q=0.8' })).toBe('de|de-DE');
    expect(pair({ acceptLanguage: 'en-US,en;q=0.9' })).toBe('us|en-US');
    expect(pair({ acceptLanguage: 'sv-SE' })).toBe('se|sv-SE');
    // the region of the first language, not of a later one
    expect(pair({ acceptLanguage: 'de, de-AT;q=0.9' })).toBe('de|de-DE');
    expect(pair({ acceptLanguage: 'fr-FR,fr;q=0.9,en-US;q=0.8,en;q=0.7' })).toBe('se|en-SE');
    // no market sells to the region: the language decides (the default market when it has it)
    expect(pair({ acceptLanguage: 'de-CH' })).toBe('de|de-DE');
    expect(pair({ acceptLanguage: 'en-GB' })).toBe('se|en-SE');
    // nothing any market offers: the default market, in its English
    expect(pair({ acceptLanguage: 'fr-FR' })).toBe('se|en-SE');
    expect(pair({ acceptLanguage: 'ja' })).toBe('se|en-SE');
    // nothing, anything or junk: the defaults
    for (const junk of [
      undefined,
      null,
      '',
      '*',
      ';q=1',
      'de-AT;q=2',
      'de-AT;q=abc',
      'q=0.5',
      '\u0000de-AT',
      'de_AT',
      'x'.repeat(10_000),
    ]) {
      expect(pair({ acceptLanguage: junk }), String(junk).slice(0, 20)).toBe('se|sv-SE');
    }
  });

  it('is the market of the trusted country when one is given, in the language asked for', () => {
    expect(pair({ country: 'AT' })).toBe('de|de-DE');
    expect(pair({ country: 'AT', acceptLanguage: 'en' })).toBe('de|en-DE');
    expect(pair({ country: 'US', acceptLanguage: 'de-DE' })).toBe('us|en-US');
    // a country no market sells to: the region of the browser says nothing more, its language decides
    expect(pair({ country: 'FR', acceptLanguage: 'en-US' })).toBe('se|en-SE');
    expect(pair({ country: 'FR', acceptLanguage: 'de' })).toBe('de|de-DE');
    expect(pair({ country: 'FR' })).toBe('se|sv-SE');
  });

  it('never outranks the shopper’s own choice', () => {
    expect(pair({ market: 'se', locale: 'sv-SE', country: 'AT', acceptLanguage: 'de-AT' })).toBe('se|sv-SE');
    expect(pair({ market: 'us', locale: 'en-US', acceptLanguage: 'de-AT' })).toBe('us|en-US');
    // a market cookie without a locale: that market, in the language asked for
    expect(pair({ market: 'se', acceptLanguage: 'de-AT, en;q=0.5' })).toBe('se|en-SE');
  });
});

describe('Accept-Language and the country header, read', () => {
  it('orders by q, then header order, and skips malformed entries', () => {
    expect(parseAcceptLanguage('da, en-GB;q=0.8, en;q=0.7')).toEqual({ tags: ['da', 'en-gb', 'en'], any: false });
    expect(parseAcceptLanguage('en;q=0.5, sv;Q=0.9 , de;q=1.000')).toEqual({ tags: ['de', 'sv', 'en'], any: false });
    expect(parseAcceptLanguage('*;q=0.1, fr')).toEqual({ tags: ['fr'], any: true });
    expect(parseAcceptLanguage('fr;q=0, *;q=0')).toEqual({ tags: [], any: false });
    expect(parseAcceptLanguage('de;q=1.5, en;q=0.0001, sv;q=, fi;q=-1, nl;q=0.5;q=x, x y, ,,')).toEqual({ tags: [], any: false });
    expect(parseAcceptLanguage(undefined)).toEqual({ tags: [], any: false });
  });
  it('believes only the header TRUST_COUNTRY_HEADER names, and only a country code', () => {
    const headers = new Headers({ 'x-vercel-ip-country': 'at', 'cf-ipcountry': 'XX' });
    expect(countryFrom(headers, undefined)).toBeNull();
    expect(countryFrom(headers, 'x-vercel-ip-country')).toBe('AT');
    expect(countryFrom(headers, 'cf-ipcountry')).toBeNull();
    expect(countryFrom(new Headers({ 'cf-ipcountry': 'T1' }), 'cf-ipcountry')).toBeNull();
    expect(countryFrom(new Headers({ 'cf-ipcountry': 'AUT' }), 'cf-ipcountry')).toBeNull();
    expect(countryFrom(new Headers(), 'cf-ipcountry')).toBeNull();
  });
});

describe('the origin of a page’s absolute URLs', () => {
  it('comes from the forwarded headers, else Host', () => {
    const headers = (entries: Record<string, string>) => new Headers(entries);
    expect(requestOrigin(headers({ host: '127.0.0.1:3000' }))).toBe('http://127.0.0.1:3000');
    expect(requestOrigin(headers({ host: 'shop.example.com' }))).toBe('https://shop.example.com');
    expect(
      requestOrigin(headers({ host: 'internal:3000', 'x-forwarded-host': 'shop.example.com', 'x-forwarded-proto': 'https, http' })),
    ).toBe('https://shop.example.com');
  });
  it('is only ever a bare http(s) origin', () => {
    expect(parseOrigin('https://shop.example.com')).toBe('https://shop.example.com');
    expect(parseOrigin('HTTPS://Shop.Example.com:443')).toBe('https://shop.example.com');
    for (const bad of [
      'ftp://shop.example.com',
      'https://shop.example.com/path',
      'https://user:pw@shop.example.com',
      'https://a.com?x=1',
      'not a url',
      `https://${'a'.repeat(400)}.com`,
    ]) {
      expect(parseOrigin(bad), bad).toBeNull();
    }
  });
  it('survives the trip through a path segment, and nothing else gets back out', () => {
    for (const origin of ['http://127.0.0.1:3300', 'https://shop.example.com', 'http://[::1]:3000']) {
      const segment = encodeOrigin(origin);
      expect(segment).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(decodeOrigin(segment)).toBe(origin);
    }
    expect(decodeOrigin(encodeOrigin('https://shop.example.com/x'))).toBeNull();
    expect(decodeOrigin('not/base64')).toBeNull();
  });
});

describe('the internal path of a cached product page', () => {
  it('carries origin, market, locale, Site and catalog version, and the handle as it came', () => {
    const key: PageKey = { origin: 'http://127.0.0.1:3300', market: 'se', locale: 'en-SE', siteId: 'site_abc', catalogVersion: 42 };
    expect(cachedProductPath(key, 'fjord-ceramic-mug')).toBe(
      `/storefront-cache/${encodeOrigin(key.origin)}/se/en-SE/site_abc.42/products/fjord-ceramic-mug`,
    );
    expect(cachedProductPath({ ...key, catalogVersion: 43 }, 'x')).not.toBe(cachedProductPath(key, 'x'));
  });
});

describe('the proxy’s page key, against the database', () => {
  let dir: string;
  let database: Database;
  let token: string;
  let pageKey: typeof import('@/lib/storefront/page-key');
  const request = (cookies: Record<string, string> = {}, host = '127.0.0.1:3000', headers: Record<string, string> = {}) => ({
    cookies: { get: (name: string) => (name in cookies ? { value: cookies[name]! } : undefined) },
    headers: new Headers({ host, ...headers }),
  });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'page-key-'));
    const url = `file:${join(dir, 'site.db')}`;
    database = openDatabase({ url });
    await migrateDatabase(database);
    await seedDatabase(database);
    token = (await createCredential(database, { siteHandle: 'demo', scope: 'extended' })).token;
    // lib/env reads the environment once, on first use: set it before the module runs.
    Object.assign(process.env, {
      DATABASE_URL: url,
      SITE_API_CREDENTIAL: token,
      PORT: '3000',
      TRUST_COUNTRY_HEADER: 'X-Vercel-IP-Country',
    });
    delete process.env.SITE_API_BASE_URL;
    delete process.env.STOREFRONT_ORIGIN;
    pageKey = await import('@/lib/storefront/page-key');
  });
  afterAll(() => {
    closeDatabase(database);
    rmSync(dir, { recursive: true, force: true });
  });

  it('names the Site’s current catalog version, and a change makes a new key at once', async () => {
    const before = await pageKey.productPageKey(request());
    expect(before).toMatchObject({ origin: 'http://127.0.0.1:3000', market: 'se', locale: 'sv-SE' });
    expect(await pageKey.productPageKey(request())).toEqual(before);

    // As an import or another instance would: straight into the database.
    const [mug] = await database.select({ id: products.id }).from(products).where(eq(products.handle, 'fjord-ceramic-mug'));
    await database.update(productTranslations).set({ title: 'Fjord Mug (renamed)' }).where(eq(productTranslations.productId, mug!.id));
    const after = await pageKey.productPageKey(request());
    expect(after!.catalogVersion).toBeGreaterThan(before!.catalogVersion);
    expect({ ...after, catalogVersion: 0 }).toEqual({ ...before, catalogVersion: 0 });
  });

  it('follows the shopper’s cookies, and maps junk ones to the defaults', async () => {
    expect(await pageKey.productPageKey(request({ market: 'de', locale: 'en-DE' }))).toMatchObject({ market: 'de', locale: 'en-DE' });
    expect(await pageKey.productPageKey(request({ market: 'de', locale: 'sv-SE' }))).toMatchObject({ market: 'de', locale: 'de-DE' });
    expect(await pageKey.productPageKey(request({ market: 'nope', locale: '<script>' }))).toMatchObject({ market: 'se', locale: 'sv-SE' });
  });

  it('is the market and locale a first visit gets from its headers, so a page for one is never shown to another', async () => {
    const key = (headers: Record<string, string>, cookies: Record<string, string> = {}) =>
      pageKey.productPageKey(request(cookies, '127.0.0.1:3000', headers));
    expect(await key({ 'accept-language': 'de-AT,de;q=0.9' })).toMatchObject({ market: 'de', locale: 'de-DE' });
    expect(await key({ 'accept-language': 'fr-FR' })).toMatchObject({ market: 'se', locale: 'en-SE' });
    expect(await key({ 'x-vercel-ip-country': 'US', 'accept-language': 'sv-SE' })).toMatchObject({ market: 'us', locale: 'en-US' });
    // a header nobody said to trust counts for nothing
    expect(await key({ 'cf-ipcountry': 'US' })).toMatchObject({ market: 'se', locale: 'sv-SE' });
    // the shopper's choice wins over both
    expect(await key({ 'x-vercel-ip-country': 'AT', 'accept-language': 'de-AT' }, { market: 'se', locale: 'sv-SE' })).toMatchObject({
      market: 'se',
      locale: 'sv-SE',
    });
  });

  it('keeps a Host it cannot use out of the key (the page then renders on request)', async () => {
    expect(await pageKey.productPageKey(request({}, 'shop.example.com'))).toMatchObject({ origin: 'https://shop.example.com' });
    expect(await pageKey.productPageKey(request({}, 'evil.com/path'))).toBeNull();
  });

  it('is only made when the API is this server', () => {
    const port = 3000;
    expect(pageKey.apiIsThisServer({ SITE_API_BASE_URL: undefined, PORT: port })).toBe(true);
    expect(pageKey.apiIsThisServer({ SITE_API_BASE_URL: 'http://127.0.0.1:3000', PORT: port })).toBe(true);
    expect(pageKey.apiIsThisServer({ SITE_API_BASE_URL: 'http://localhost:3000/', PORT: port })).toBe(true);
    expect(pageKey.apiIsThisServer({ SITE_API_BASE_URL: 'http://127.0.0.1:9', PORT: port })).toBe(false);
    expect(pageKey.apiIsThisServer({ SITE_API_BASE_URL: 'https://api.example.com', PORT: port })).toBe(false);
  });

  it('is not made for a revoked credential', async () => {
    expect(await revokeCredential(database, token)).toBe(true);
    expect(await pageKey.productPageKey(request())).toBeNull();
  });
});
