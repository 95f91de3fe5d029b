import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { beginTransaction, execute, type Database } from '@/db';
import { authenticateCredential, createCredential, type SiteContext } from '@/lib/platform/auth/credentials';
import { getCollection, getPublishedProduct, listCatalog, listProducts } from '@/lib/commerce/catalog';
import { chooseMarket, type MarketChoice } from '@/lib/commerce/markets';
import { PRODUCT_SORTS, ProductListQuery } from '@/lib/contract/operations/reads';
import { withinOneEdit } from '@/lib/commerce/catalog/search';
import { Vocabulary } from '@/lib/commerce/catalog/stemming';
import { deferSearchIndex } from '@/db/search-index';
import { freshDatabase } from './support/database';

let dir: string;
let database: Database;
let token: string;
let demo: SiteContext['site'];
let se: MarketChoice;

/** The Site as of now (its catalog version moves with every change). */
async function site() {
  return (await authenticateCredential(database, token))!.site;
}

async function search(query: Record<string, string | string[]>, choice?: MarketChoice) {
  const s = await site();
  const c =
    choice ?? (await chooseMarket(database, s, { market: query.market as string | undefined, locale: query.locale as string | undefined }));
  return (await listProducts(database, s, c, ProductListQuery.parse(query))).data.map((p) => p.handle);
}

/** The search's handles, and those of its products whose title contains the word (brute force). */
async function titled(q: string, locale: string) {
  const market = locale.endsWith('-DE') ? 'de' : 'se';
  const s = await site();
  const c = await chooseMarket(database, s, { market, locale });
  const all = (await listProducts(database, s, c, ProductListQuery.parse({ limit: '100' }))).data;
  const fold = (t: string) => t.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  const handles = await search({ q, market, locale });
  return { handles, titled: all.filter((p) => fold(p.title).includes(fold(q))).map((p) => p.handle) };
}

/** Every page of a list, following nextCursor. */
async function allPages(query: Record<string, string | string[]>) {
  const s = await site();
  const c = await chooseMarket(database, s, { market: query.market as string | undefined, locale: query.locale as string | undefined });
  const handles: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await listProducts(database, s, c, ProductListQuery.parse({ ...query, ...(cursor ? { cursor } : {}) }));
    handles.push(...page.data.map((p) => p.handle));
    cursor = page.page.nextCursor ?? undefined;
    pages++;
  } while (cursor);
  return { handles, pages };
}

beforeAll(async () => {
  ({ database, dir } = await freshDatabase());
  ({ token } = await createCredential(database, { siteHandle: 'demo', scope: 'core' }));
  demo = await site();
  se = await chooseMarket(database, demo, {});
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('product search', () => {
  it('finds by title in each locale, title hits first', async () => {
    expect((await search({ q: 'ceramic mug', locale: 'en-SE' }))[0]).toBe('fjord-ceramic-mug');
    expect(await search({ q: 'keramikmugg', locale: 'sv-SE' })).toEqual(['fjord-ceramic-mug']);
    expect((await search({ q: 'Keramikbecher', market: 'de', locale: 'de-DE' }))[0]).toBe('fjord-ceramic-mug');
    // Title hits before the products that only mention the word in their description.
    const en = await search({ q: 'wool', locale: 'en-SE' });
    const titled = ['aurora-wool-throw', 'hygge-wool-rug', 'vinter-wool-scarf', 'ragg-wool-socks', 'picnic-wool-blanket'];
    expect(new Set(en.slice(0, titled.length))).toEqual(new Set(titled));
  });

  it('matches the last word as a prefix, and words inside compounds', async () => {
    expect(await search({ q: 'fjord mu', locale: 'en-SE' })).toContain('fjord-ceramic-mug');
    expect(await search({ q: 'mugg', locale: 'sv-SE' })).toContain('fjord-ceramic-mug');
    expect(await search({ q: 'becher', market: 'de', locale: 'de-DE' })).toContain('fjord-ceramic-mug');
    // words may match in different texts: the title and an option value
    expect(await search({ q: 'mug midnight', locale: 'en-SE' })).toEqual(['fjord-ceramic-mug']);
    // every word must match
    expect(await search({ q: 'fjord kettle', locale: 'en-SE' })).toEqual([]);
  });

  it('is case- and diacritic-insensitive and forgives a typo in long words', async () => {
    expect(await search({ q: 'KAFFEBONOR', locale: 'sv-SE' })).toContain('nordic-roast-coffee');
    expect(await search({ q: 'fjäll', locale: 'en-SE' })).toEqual(await search({ q: 'fjall', locale: 'en-SE' }));
    expect(await search({ q: 'ceramc', locale: 'en-SE' })).toContain('fjord-ceramic-mug');
    expect(withinOneEdit('ceramc', 'ceramic')).toBe(true);
    expect(withinOneEdit('cearmic', 'ceramic')).toBe(true);
    expect(withinOneEdit('cermc', 'ceramic')).toBe(false);
    // A typo'd word finds the same titles the right spelling finds first.
    const right = await titled('ceramic', 'en-SE');
    expect(right.titled.length).toBeGreaterThan(1);
    expect((await search({ q: 'ceramc', locale: 'en-SE' })).slice(0, right.titled.length).sort()).toEqual([...right.titled].sort());
  });

  it('ranks title hits before description hits, exact words before parts of words', async () => {
    for (const [q, locale] of [
      ['ceramic', 'en-SE'],
      ['wool', 'en-SE'],
      ['leinen', 'de-DE'],
    ] as const) {
      const { handles, titled: inTitle } = await titled(q, locale);
      expect(inTitle.length, q).toBeGreaterThan(0);
      expect(handles.slice(0, inTitle.length).sort(), q).toEqual([...inTitle].sort());
    }
    // "ull" is a whole word in "Picknickfilt i ull" and "Raggsockor i ull", a part of "ullpläd" and "merinoull";
    // the end of "bomull" (cotton) only by chance (see 'matches a compound by its parts' below).
    const ull = await search({ q: 'ull', locale: 'sv-SE' });
    expect(ull.slice(0, 2).sort()).toEqual(['picnic-wool-blanket', 'ragg-wool-socks']);
    expect(ull).toContain('aurora-wool-throw');
    expect(ull).toContain('fjall-merino-beanie');
    expect(ull).not.toContain('organic-cotton-tee');
  });

  it('treats search syntax as plain text, never an error', async () => {
    // Each reads as its words, lower-cased: FTS5's operators (OR, NEAR, *, ^, column:) are
    // upper-case words and punctuation, so a query that used them would answer otherwise.
    const words = (q: string) =>
      q
        .toLowerCase()
        .replace(/[^\p{L}\p{N}]+/gu, ' ')
        .trim();
    for (const q of [
      '"',
      '*',
      '-',
      ':',
      '(',
      'NEAR',
      'OR',
      'mug OR',
      '"mug',
      'title:mug',
      'mug*',
      '-mug',
      'NEAR(mug kettle)',
      'a AND',
      '^',
      "'",
      '\\',
    ]) {
      const handles = await search({ q, locale: 'en-SE' });
      expect(handles, q).toEqual(words(q) === '' ? [] : await search({ q: words(q), locale: 'en-SE' }));
    }
    // and the operators' neighbours are still searched, not dropped with them
    for (const q of ['"mug', 'mug*', '-mug', '(mug', 'mug^'])
      expect(await search({ q, locale: 'en-SE' }), q).toContain('fjord-ceramic-mug');
    expect(await search({ q: '"mug"', locale: 'en-SE' })).toEqual(await search({ q: 'mug', locale: 'en-SE' }));
    expect(ProductListQuery.safeParse({ q: '' }).success).toBe(false);
    expect(ProductListQuery.safeParse({ q: 'x'.repeat(201) }).success).toBe(false);
    expect(ProductListQuery.safeParse({ sort: 'cheapest' }).success).toBe(false);
  });

  it('a raw SQL change is searchable at once, inside the same transaction', async () => {
    await database.transaction(async (tx) => {
      await tx.run(
        sql`update product_translations set title = 'Zephyrine Kettle' where locale like 'en-%' and product_id = (select id from products where handle = 'nord-stovetop-kettle')`,
      );
      const hits = await tx.all<{ id: number }>(
        sql`select rowid as id from product_search_words where product_search_words match 'title : "zephyrine"'`,
      );
      expect(hits.length).toBeGreaterThan(0);
    });
    expect(await search({ q: 'zephyri', locale: 'en-SE' })).toEqual(['nord-stovetop-kettle']);
    await database.run(
      sql`update product_variants set sku = 'QX-ZZTOP-1' where id = (select id from product_variants where product_id = (select id from products where handle = 'moss-plant-pot') limit 1)`,
    );
    expect(await search({ q: 'zztop', market: 'de', locale: 'de-DE' })).toEqual(['moss-plant-pot']);
    // and a delete leaves nothing behind: the old SKU and the old title are gone
    await database.run(sql`update product_variants set sku = 'QX-PLAIN-1' where sku = 'QX-ZZTOP-1'`);
    expect(await search({ q: 'zztop', market: 'de', locale: 'de-DE' })).toEqual([]);
    await database.run(
      sql`delete from product_translations where locale = 'en-SE' and product_id = (select id from products where handle = 'nord-stovetop-kettle')`,
    );
    // no en-SE text left: the Site's default locale is searched for it instead
    expect(await search({ q: 'zephyri', locale: 'en-SE' })).toEqual([]);
    expect(await search({ q: 'vattenkittel', locale: 'en-SE' })).toEqual(['nord-stovetop-kettle']);
  });
});

describe('product search index upkeep', () => {
  it('a bulk write (an import, the seed) is indexed once at its end, inside its transaction', async () => {
    const tx = await beginTransaction(database, 'write');
    try {
      await deferSearchIndex(tx, async () => {
        await tx.execute(
          "update product_translations set title = 'Quokkaformad kruka' where locale = 'sv-SE' and product_id = (select id from products where handle = 'moss-plant-pot')",
        );
        await tx.execute(
          "update product_variants set sku = 'QX-WOMBAT-1' where id = (select id from product_variants where product_id = (select id from products where handle = 'moss-plant-pot') limit 1)",
        );
        // noted, not yet written
        expect(
          (await tx.execute("select count(*) as n from product_search_words where product_search_words match 'quokkaformad'")).rows[0]!.n,
        ).toBe(0);
        expect((await tx.execute('select count(*) as n from product_search_pending')).rows[0]!.n).toBe(1);
      });
      expect(
        (await tx.execute("select count(*) as n from product_search_words where product_search_words match 'quokkaformad'")).rows[0]!.n,
      ).toBe(1);
      await tx.commit();
    } finally {
      tx.close();
    }
    expect(await search({ q: 'quokka' })).toEqual(['moss-plant-pot']);
    expect(await search({ q: 'wombat', locale: 'en-SE' })).toEqual(['moss-plant-pot']);
    for (const table of ['product_search_pending', 'product_search_bulk']) {
      expect((await execute(database, `select count(*) as n from ${table}`)).rows[0]!.n, table).toBe(0);
    }
  });

  it('a locale added to a market gets a document per product, and loses them when removed', async () => {
    const docs = async () =>
      Number(
        (
          await execute(
            database,
            "select count(*) as n from product_search_words where (rowid & 255) = (select slot from product_search_locales where locale = 'da-DK')",
          )
        ).rows[0]!.n,
      );
    const products = Number(
      (await execute(database, { sql: 'select count(*) as n from products where site_id = ?', args: [demo.id] })).rows[0]!.n,
    );
    await execute(database, {
      sql: "insert into market_locales (site_id, market_id, locale, position) values (?, 'se', 'da-DK', 9)",
      args: [demo.id],
    });
    expect(await docs()).toBe(products);
    await execute(database, { sql: "delete from market_locales where site_id = ? and locale = 'da-DK'", args: [demo.id] });
    expect(await docs()).toBe(0);
  });

  it("keeps the index's copy of a handle, which orders a relevance level", async () => {
    const handleOf = async (id: string) =>
      (await execute(database, { sql: 'select handle from product_search_ids where product_id = ?', args: [id] })).rows[0]!.handle;
    const id = String((await execute(database, "select id from products where handle = 'moss-plant-pot'")).rows[0]!.id);
    await execute(database, { sql: "update products set handle = 'moss-plant-pot-2' where id = ?", args: [id] });
    expect(await handleOf(id)).toBe('moss-plant-pot-2');
    expect(await search({ q: 'quokka' })).toEqual(['moss-plant-pot-2']);
    await execute(database, { sql: "update products set handle = 'moss-plant-pot' where id = ?", args: [id] });
    expect(await handleOf(id)).toBe('moss-plant-pot');
  });

  it('pages a broad prefix through every relevance level without duplicates or gaps', async () => {
    const whole = await allPages({ q: 'm', limit: '100' });
    const paged = await allPages({ q: 'm', limit: '4' });
    expect(paged.pages).toBeGreaterThan(3);
    expect(paged.handles).toEqual(whole.handles);
    expect(new Set(paged.handles).size).toBe(paged.handles.length);
    // title hits first: every product whose title has an m-word comes before any that has none
    const s = await site();
    const all = (await listProducts(database, s, se, ProductListQuery.parse({ limit: '100' }))).data;
    const fold = (t: string) => t.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
    const titled = new Set(
      all
        .filter((p) =>
          fold(p.title)
            .split(/[^\p{L}\p{N}]+/u)
            .some((w) => w.startsWith('m')),
        )
        .map((p) => p.handle),
    );
    expect(titled.size).toBeGreaterThan(0);
    expect(new Set(whole.handles.slice(0, titled.size))).toEqual(titled);
  });
});

describe('product sort', () => {
  it('pages through every sort without duplicates or gaps, in the order asked for', async () => {
    const catalog = await listCatalog(database, demo, se, { limit: 250 });
    const everything = catalog.data.map((p) => p.handle).sort();
    const prices = new Map(catalog.data.map((p) => [p.handle, Math.min(...p.variants.map((v) => Number(v.price.amount)))]));
    for (const sort of PRODUCT_SORTS) {
      const whole = await allPages({ sort, limit: '100' });
      const paged = await allPages({ sort, limit: '7' });
      expect(paged.pages, sort).toBeGreaterThan(2);
      expect(paged.handles, sort).toEqual(whole.handles);
      expect([...paged.handles].sort(), sort).toEqual(everything);
    }
    const asc = (await allPages({ sort: 'price-asc', limit: '5' })).handles.map((h) => prices.get(h)!);
    expect(asc).toEqual([...asc].sort((a, b) => a - b));
    const desc = (await allPages({ sort: 'price-desc', limit: '5' })).handles.map((h) => prices.get(h)!);
    expect(desc).toEqual([...desc].sort((a, b) => b - a));
    // a search in another order: the same products, in that order
    const woolByPrice = await allPages({ q: 'wool', sort: 'price-asc', limit: '3' });
    expect([...woolByPrice.handles].sort()).toEqual([...(await allPages({ q: 'wool', limit: '100' })).handles].sort());
    const woolPrices = woolByPrice.handles.map((h) => prices.get(h)!);
    expect(woolPrices).toEqual([...woolPrices].sort((a, b) => a - b));
    // relevance with q pages too
    const wool = await allPages({ q: 'wool', limit: '2' });
    expect(wool.handles).toEqual((await allPages({ q: 'wool', limit: '100' })).handles);
    expect(new Set(wool.handles).size).toBe(wool.handles.length);
  });

  it('sorts titles in the locale, ignoring case and diacritics', async () => {
    const sv = await allPages({ sort: 'title-asc', locale: 'sv-SE', limit: '100' });
    expect(sv.handles.length).toBeGreaterThan(10);
    const s = await site();
    const c = await chooseMarket(database, s, { locale: 'sv-SE' });
    const titles = (
      await listProducts(database, s, c, ProductListQuery.parse({ sort: 'title-asc', locale: 'sv-SE', limit: '100' }))
    ).data.map((p) => p.title);
    const collator = new Intl.Collator('sv-SE', { sensitivity: 'base', numeric: true });
    expect(titles).toEqual([...titles].sort(collator.compare));
  });

  it('rejects a cursor from another order', async () => {
    const s = await site();
    const first = await listProducts(database, s, se, ProductListQuery.parse({ sort: 'newest', limit: '2' }));
    await expect(
      listProducts(database, s, se, ProductListQuery.parse({ sort: 'price-asc', limit: '2', cursor: first.page.nextCursor! })),
    ).rejects.toThrow(/cursor/);
  });

  it('rejects a cursor whose key means something else here: a price from another market, a title from another language, a score from another search', async () => {
    const s = await site();
    const de = await chooseMarket(database, s, { market: 'de' });
    const enSe = await chooseMarket(database, s, { locale: 'en-SE' });
    expect(enSe.locale).not.toBe(se.locale);
    expect(de.market.currency).not.toBe(se.market.currency);
    const page = (choice: MarketChoice, query: Record<string, string>) =>
      listProducts(database, s, choice, ProductListQuery.parse({ limit: '1', ...query }));
    const cases: [MarketChoice, Record<string, string>, MarketChoice, Record<string, string>][] = [
      [se, { sort: 'price-asc' }, de, { sort: 'price-asc' }],
      [se, { sort: 'price-desc' }, de, { sort: 'price-desc' }],
      [se, { sort: 'title-asc' }, enSe, { sort: 'title-asc' }],
      [se, { q: 'mug' }, se, { q: 'wool' }],
      [se, { q: 'mug' }, enSe, { q: 'mug' }],
    ];
    for (const [from, first, to, next] of cases) {
      const cursor = (await page(from, first)).page.nextCursor!;
      expect(cursor, JSON.stringify(first)).toBeTruthy();
      await expect(page(to, { ...next, cursor }), JSON.stringify(next)).rejects.toThrow(/cursor/);
      // In its own list the same cursor goes on.
      expect((await page(from, { ...first, cursor })).data.length).toBeGreaterThan(0);
    }
    // The same words are the same search, whatever their case and spacing.
    const mug = (await page(se, { q: 'mug' })).page.nextCursor!;
    for (const q of ['MUG', ' Mug ', 'mug!']) expect((await page(se, { q, cursor: mug })).data.length, q).toBeGreaterThan(0);
    // A key that means the same everywhere stays usable: handle order, and newest.
    for (const sort of ['relevance', 'newest']) {
      const cursor = (await page(se, { sort })).page.nextCursor!;
      expect((await page(de, { sort, cursor })).data.length, sort).toBeGreaterThan(0);
    }
  });
});

describe('product filters and facets', () => {
  type Brute = { handle: string; variants: { options: Record<string, string>; price: number; purchasable: boolean }[] };
  let catalog: Brute[];
  let kitchen: Set<string>;

  beforeAll(async () => {
    const s = await site();
    const page = await listCatalog(database, s, se, { limit: 250 });
    catalog = page.data.map((p) => ({
      handle: p.handle,
      variants: p.variants.map((v) => ({
        options: v.options,
        price: Math.round(Number(v.price.amount) * 100),
        purchasable: v.availability !== 'out_of_stock',
      })),
    }));
    kitchen = new Set((await getCollection(database, s, 'kitchen', se, { limit: 100 })).products.map((p) => p.handle));
  });

  type Filter = { available?: boolean; min?: number; max?: number; options?: Record<string, string[]>; collection?: Set<string> };
  // The filters hold for one variant together (a product passes when one of its variants passes them all).
  const variantPasses = (v: Brute['variants'][number], f: Filter, except = '') =>
    (except === 'available' || !f.available || v.purchasable) &&
    (except === 'price' || (f.min === undefined && f.max === undefined) || (v.price >= (f.min ?? 0) && v.price <= (f.max ?? Infinity))) &&
    Object.entries(f.options ?? {}).every(([name, values]) => except === `option:${name}` || values.includes(v.options[name]!));
  const passing = (p: Brute, f: Filter, except = '') =>
    !f.collection || f.collection.has(p.handle) ? p.variants.filter((v) => variantPasses(v, f, except)) : [];
  const passes = (p: Brute, f: Filter, except = '') => passing(p, f, except).length > 0;

  const cases: { query: Record<string, string | string[]>; filter: () => Filter; empty?: boolean }[] = [
    { query: { available: 'true' }, filter: () => ({ available: true }) },
    { query: { priceMin: '199', priceMax: '499.00' }, filter: () => ({ min: 19900, max: 49900 }) },
    { query: { priceMax: '149' }, filter: () => ({ max: 14900 }) },
    // in the default locale, sv-SE, options are named and filtered as the shop shows them
    { query: { option: ['Färg:Sand'] }, filter: () => ({ options: { Färg: ['Sand'] } }) },
    { query: { option: ['Färg:Sand', 'Färg:Vit'] }, filter: () => ({ options: { Färg: ['Sand', 'Vit'] } }) },
    // different options AND: no demo product has both a colour and a size
    { query: { option: ['Färg:Sand', 'Storlek:Stor'] }, filter: () => ({ options: { Färg: ['Sand'], Storlek: ['Stor'] } }), empty: true },
    { query: { collection: 'kitchen' }, filter: () => ({ collection: kitchen }) },
    {
      query: { collection: 'kitchen', available: 'true', option: ['Färg:Vit'], priceMin: '100' },
      filter: () => ({ collection: kitchen, available: true, options: { Färg: ['Vit'] }, min: 10000 }),
    },
    // the tote bag's black variant is sold out: under Svart it is not in stock, though its natural one is
    { query: { option: ['Färg:Svart'], available: 'true' }, filter: () => ({ options: { Färg: ['Svart'] }, available: true }) },
    { query: { option: ['Färg:Svart'], priceMax: '299' }, filter: () => ({ options: { Färg: ['Svart'] }, max: 29900 }) },
  ];

  it('each filter and combination matches a brute-force count, across pages and sorts', async () => {
    for (const { query, filter, empty } of cases) {
      const f = filter();
      const expected = catalog
        .filter((p) => passes(p, f))
        .map((p) => p.handle)
        .sort();
      expect(expected.length > 0, JSON.stringify(query)).toBe(!empty);
      const plain = await allPages({ ...(query as Record<string, string>), limit: '3' });
      expect(plain.handles, JSON.stringify(query)).toEqual(expected);
      const sorted = await allPages({ ...(query as Record<string, string>), sort: 'price-desc', limit: '3' });
      expect([...sorted.handles].sort(), JSON.stringify(query)).toEqual(expected);
    }
    // the filters combine with handles=
    const some = catalog.slice(0, 10).map((p) => p.handle);
    expect(await search({ handles: some.join(','), available: 'true' })).toEqual(
      some.filter((h) =>
        passes(
          catalog.find((p) => p.handle === h)!,
          { available: true },
        ),
      ),
    );
  });

  it('counts facets over the filtered set, each without its own filter', async () => {
    for (const { query, filter } of cases) {
      const f = filter();
      const s = await site();
      const page = await listProducts(database, s, se, ProductListQuery.parse({ ...query, facets: 'true', limit: '1' }));
      const facets = page.facets!;
      const avail = catalog.filter((p) => passes(p, f, 'available'));
      expect(facets.availability, JSON.stringify(query)).toEqual({
        available: avail.filter((p) => passing(p, f, 'available').some((v) => v.purchasable)).length,
        unavailable: avail.filter((p) => !passing(p, f, 'available').some((v) => v.purchasable)).length,
      });
      const priced = catalog.flatMap((p) => passing(p, f, 'price').map((v) => v.price));
      expect(
        facets.price && [Math.round(Number(facets.price.min.amount) * 100), Math.round(Number(facets.price.max.amount) * 100)],
        JSON.stringify(query),
      ).toEqual(priced.length ? [Math.min(...priced), Math.max(...priced)] : null);
      for (const name of ['Färg', 'Storlek']) {
        const counts: Record<string, number> = {};
        for (const p of catalog) {
          for (const value of new Set(
            passing(p, f, `option:${name}`)
              .map((v) => v.options[name])
              .filter(Boolean),
          ))
            counts[value!] = (counts[value!] ?? 0) + 1;
        }
        const got = Object.fromEntries((facets.options.find((o) => o.name === name)?.values ?? []).map((v) => [v.value, v.count]));
        expect(got, `${name} ${JSON.stringify(query)}`).toEqual(counts);
      }
    }
    // with q: facets count the search's products
    const s = await site();
    const wool = await listProducts(database, s, se, ProductListQuery.parse({ q: 'ull', facets: 'true' }));
    expect(wool.facets!.availability.available + wool.facets!.availability.unavailable).toBe(wool.data.length);
    // no facets unless asked for
    expect((await listProducts(database, s, se, ProductListQuery.parse({ available: 'true' }))).facets).toBeUndefined();
  });

  it('shows the variants a filter matched: under Svart the tote bag is its sold-out black variant, in picture, price and stock, and counted so', async () => {
    const s = await site();
    const black = (await getPublishedProduct(database, s, 'linen-tote-bag', se)).variants.find((v) => v.options['Färg'] === 'Svart')!;
    expect(black.availability).toBe('out_of_stock');
    expect(black.image).not.toBeNull();
    const page = await listProducts(
      database,
      s,
      se,
      ProductListQuery.parse({ handles: 'linen-tote-bag', option: ['Färg:Svart'], facets: 'true' }),
    );
    const [bag] = page.data;
    // The product as a whole can still be bought (its natural variant)...
    expect(bag!.availability).not.toBe('out_of_stock');
    // ...but what the filter matched cannot.
    expect(bag!.match).toEqual({
      variantIds: [black.id],
      image: black.image,
      priceRange: { min: black.price, max: black.price },
      compareAtPrice: black.compareAtPrice,
      availability: 'out_of_stock',
    });
    expect(bag!.match!.image!.url).not.toBe(bag!.featuredImage!.url);
    expect(page.facets!.availability).toEqual({ available: 0, unavailable: 1 });
    expect(await search({ handles: 'linen-tote-bag', option: ['Färg:Svart'], available: 'true' })).toEqual([]);
    // in stock only: the bag is there, as its natural variant
    const natural = (await listProducts(database, s, se, ProductListQuery.parse({ handles: 'linen-tote-bag', available: 'true' })))
      .data[0]!;
    expect(natural.match?.availability).not.toBe('out_of_stock');
    expect(natural.match?.variantIds).not.toContain(black.id);
    // Without a variant filter there is nothing matched to show.
    expect((await listProducts(database, s, se, ProductListQuery.parse({ handles: 'linen-tote-bag' }))).data[0]!.match).toBeUndefined();
    expect(
      (await listProducts(database, s, se, ProductListQuery.parse({ handles: 'linen-tote-bag', sort: 'newest', facets: 'true' }))).data[0]!
        .match,
    ).toBeUndefined();
  });

  it('sorts a variant-filtered list by the prices of the variants that passed (the prices its cards show)', async () => {
    let differs = false;
    const large = ['Storlek:Stor', 'Storlek:L', 'Storlek:Ø 45 cm', 'Storlek:Ø 24 cm', 'Storlek:1 kg', 'Storlek:170×240 cm'];
    for (const query of [{ option: large }, { option: large, available: 'true' }]) {
      for (const sort of ['price-asc', 'price-desc'] as const) {
        const s = await site();
        const shown: number[] = [];
        let cursor: string | undefined;
        do {
          const page = await listProducts(
            database,
            s,
            se,
            ProductListQuery.parse({ ...query, sort, limit: '2', ...(cursor ? { cursor } : {}) }),
          );
          for (const p of page.data) {
            shown.push(Number(p.match!.priceRange.min.amount));
            if (p.match!.priceRange.min.amount !== p.priceRange.min.amount) differs = true;
          }
          cursor = page.page.nextCursor ?? undefined;
        } while (cursor);
        expect(shown.length, JSON.stringify(query)).toBeGreaterThan(1);
        expect(shown, `${sort} ${JSON.stringify(query)}`).toEqual([...shown].sort((a, b) => (sort === 'price-asc' ? a - b : b - a)));
      }
    }
    // The case that matters: some product's large variant costs more than its cheapest.
    expect(differs).toBe(true);
  });

  it('rejects bad filters with clear errors', async () => {
    const s = await site();
    expect(ProductListQuery.safeParse({ option: ['Color'] }).success).toBe(false);
    expect(ProductListQuery.safeParse({ priceMin: '1,5' }).success).toBe(false);
    expect(ProductListQuery.safeParse({ available: 'yes' }).success).toBe(false);
    expect(ProductListQuery.safeParse({ option: Array.from({ length: 21 }, (_, i) => `Color:${i}`) }).success).toBe(false);
    await expect(listProducts(database, s, se, ProductListQuery.parse({ priceMin: '1.001' }))).rejects.toThrow(/decimals/);
    // the same text means the same amount wherever a caller sends it (lib/commerce/money.ts): zeros past the currency's digits too
    await expect(listProducts(database, s, se, ProductListQuery.parse({ priceMin: '199.000' }))).rejects.toThrow(/decimals/);
    await expect(listProducts(database, s, se, ProductListQuery.parse({ priceMin: '500', priceMax: '100' }))).rejects.toThrow(/above/);
    expect(await search({ collection: 'no-such-collection' })).toEqual([]);
  });
});

describe('option values in the shopper’s language', () => {
  it('finds a product by an option value as its locale shows it, and not by another language’s', async () => {
    // The mug's "Midnight" reads "Midnattsblå" in Swedish and "Mitternachtsblau" in German (db/seed/option-texts.ts).
    expect(await search({ q: 'midnattsblå', market: 'se', locale: 'sv-SE' })).toContain('fjord-ceramic-mug');
    expect(await search({ q: 'mitternachtsblau', market: 'de', locale: 'de-DE' })).toContain('fjord-ceramic-mug');
    // Another language's words are searched in titles only (see 'finds a word of another of the Site’s languages').
    expect(await search({ q: 'midnattsblå', market: 'se', locale: 'en-SE' })).not.toContain('fjord-ceramic-mug');
    // the stored value still finds it everywhere (slot 0)
    expect(await search({ q: 'midnight', market: 'se', locale: 'sv-SE' })).toContain('fjord-ceramic-mug');
    // a word inside a compound value: "natts" in "midnattsblå"
    expect(await search({ q: 'nattsbl', market: 'se', locale: 'sv-SE' })).toContain('fjord-ceramic-mug');
  });

  it('follows a change of the option texts in the same transaction', async () => {
    const s = await site();
    const [row] = await database.all<{
      options: string;
    }>(sql`select t.options from product_translations t join products p on p.id = t.product_id
      where p.site_id = ${s.id} and p.handle = 'fjord-ceramic-mug' and t.locale = 'sv-SE'`);
    const before = row!.options;
    const changed = JSON.parse(before) as Record<string, { values?: Record<string, string> }>;
    changed.Color!.values!.Midnight = 'Nattblå';
    await database.run(sql`update product_translations set options = ${JSON.stringify(changed)}
      where locale = 'sv-SE' and product_id = (select id from products where site_id = ${s.id} and handle = 'fjord-ceramic-mug')`);
    try {
      expect(await search({ q: 'nattblå', market: 'se', locale: 'sv-SE' })).toContain('fjord-ceramic-mug');
      expect(await search({ q: 'midnattsblå', market: 'se', locale: 'sv-SE' })).not.toContain('fjord-ceramic-mug');
    } finally {
      await database.run(sql`update product_translations set options = ${before}
        where locale = 'sv-SE' and product_id = (select id from products where site_id = ${s.id} and handle = 'fjord-ceramic-mug')`);
    }
  });
});

describe('word forms, compounds and the Site’s other languages', () => {
  const de = { market: 'de', locale: 'de-DE' };
  const sv = { market: 'se', locale: 'sv-SE' };
  const en = { market: 'se', locale: 'en-SE' };

  it('finds plural and inflected forms by their stem, in each language', async () => {
    for (const [q, where, handles] of [
      ['mugs', en, ['fjord-ceramic-mug', 'enamel-camping-mug']],
      ['bags', en, ['linen-tote-bag']],
      ['muggar', sv, ['fjord-ceramic-mug', 'enamel-camping-mug']],
      ['vaser', sv, ['skog-ceramic-vase', 'hav-ceramic-vase']],
      ['kuddar', sv, ['lofoten-cushion-cover']],
      ['handdukar', sv, ['bastu-sauna-towel']],
      ['Lampen', de, ['filament-led-bulb']],
      ['Handtücher', de, ['waffle-bath-towel', 'bastu-sauna-towel']],
    ] as const) {
      const found = await search({ q, ...where });
      for (const handle of handles) expect(found, q).toContain(handle);
    }
    // A form ranks as the word itself: "mugs" puts the titles with "mug" first, as "mug" does.
    const mug = await titled('mug', 'en-SE');
    expect((await search({ q: 'mugs', ...en })).slice(0, mug.titled.length).sort()).toEqual([...mug.titled].sort());
  });

  it('matches a compound by its parts: the first always, the last when the rest stands on its own', async () => {
    // kudde → kudd-fodral: the query's stem begins the compound.
    expect(await search({ q: 'kudde', ...sv })).toContain('lofoten-cushion-cover');
    // Wolle → Woll-decke, Woll-socken, Merino-wolle; not Baum-wolle (cotton): "Baum" is no word of the catalog.
    const wolle = await search({ q: 'Wolle', ...de });
    for (const handle of ['aurora-wool-throw', 'ragg-wool-socks', 'vinter-wool-scarf', 'picnic-wool-blanket', 'fjall-merino-beanie'])
      expect(wolle).toContain(handle);
    expect(wolle).not.toContain('organic-cotton-tee');
    // Becher → Keramik-becher: "Keramik" begins compounds with other heads (Keramikvase).
    expect(await search({ q: 'becher', ...de })).toContain('fjord-ceramic-mug');
    expect(await search({ q: 'vaser', ...sv })).not.toContain('canvas-apron'); // "canvas" only ends in "vas"
  });

  it('splits a compound only where its first part is known, which the vocabulary decides', () => {
    const words = [
      'baumwolle',
      'wolldecke',
      'merino',
      'merinowolle',
      'keramikvase',
      'keramikbecher',
      'kuddfodral',
      'vastkustens',
      'bomullscanvas',
    ];
    const vocabulary = new Vocabulary(words);
    expect(vocabulary.expand('wolle', 'de')).toEqual({ forms: [], parts: ['wolldecke', 'merinowolle'] });
    expect(vocabulary.expand('kudde', 'sv').parts).toEqual(['kuddfodral']);
    expect(vocabulary.expand('vaser', 'sv').parts).toEqual(['keramikvase']);
    expect(vocabulary.expand('becher', 'de').parts).toEqual(['keramikbecher']);
    // Were "Baum" a word of the catalog, Baumwolle would be Baum + Wolle.
    expect(new Vocabulary([...words, 'baum']).expand('wolle', 'de').parts).toContain('baumwolle');
    // Words under three letters stand for themselves only.
    expect(vocabulary.expand('wo', 'de')).toEqual({ forms: [], parts: [] });
  });

  it('forgives one typo from four letters on, in every language alike', async () => {
    expect(await search({ q: 'mugg', ...en })).toContain('fjord-ceramic-mug');
    expect(await search({ q: 'shal', ...de })).toContain('vinter-wool-scarf');
    expect(await search({ q: 'ceramc', ...en })).toContain('fjord-ceramic-mug');
    expect(await search({ q: 'keramikmug', ...sv })).toContain('fjord-ceramic-mug');
    // three letters are too few: "mgu" is no mug
    expect(await search({ q: 'mgu', ...en })).toEqual([]);
  });

  it('finds a word of another of the Site’s languages, below the shopper’s own', async () => {
    expect(await search({ q: 'keramikmugg', ...en })).toContain('fjord-ceramic-mug');
    expect(await search({ q: 'wool', ...de })).toContain('aurora-wool-throw');
    expect(await search({ q: 'mugs', ...sv })).toContain('fjord-ceramic-mug'); // English's plural, by English's stemmer
    expect(await search({ q: 'keramikmugg', ...en, sort: 'price-asc' })).toContain('fjord-ceramic-mug');
    // One made-up word in the English titles of one product and the Swedish title of another
    // (the plate sorts after the mug by handle, so only relevance puts it first).
    const s = await site();
    const rows = await database.all<{
      productId: string;
      locale: string;
      title: string;
    }>(sql`select t.product_id as productId, t.locale, t.title
      from product_translations t join products p on p.id = t.product_id
      where p.site_id = ${s.id} and ((p.handle = 'glacier-dinner-plate' and t.locale like 'en-%') or (p.handle = 'fjord-ceramic-mug' and t.locale = 'sv-SE'))`);
    expect(rows.length).toBeGreaterThan(1);
    const retitle = (to: (row: (typeof rows)[number]) => string) =>
      Promise.all(
        rows.map((row) =>
          database.run(
            sql`update product_translations set title = ${to(row)} where product_id = ${row.productId} and locale = ${row.locale}`,
          ),
        ),
      );
    await retitle((row) => (row.locale === 'sv-SE' ? 'Quillorne keramikmugg' : 'Quillorne Plate'));
    try {
      expect(await search({ q: 'quillorne', ...sv })).toEqual(['fjord-ceramic-mug', 'glacier-dinner-plate']);
      expect(await search({ q: 'quillorne', ...en })).toEqual(['glacier-dinner-plate', 'fjord-ceramic-mug']);
      // the new word's forms at once (the vocabulary follows the index), and the order holds across pages
      expect(await search({ q: 'quillornes', ...en })).toEqual(['glacier-dinner-plate', 'fjord-ceramic-mug']);
      expect((await allPages({ q: 'quillorne', ...en, limit: '1' })).handles).toEqual(['glacier-dinner-plate', 'fjord-ceramic-mug']);
      // two words: both in the shopper's language ranks first
      expect((await search({ q: 'quillorne plate', ...en }))[0]).toBe('glacier-dinner-plate');
    } finally {
      await retitle((row) => row.title);
    }
  });
});
