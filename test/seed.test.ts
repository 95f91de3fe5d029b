import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq, getTableName, inArray, is, like } from 'drizzle-orm';
import { SQLiteTable } from 'drizzle-orm/sqlite-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '@/db/client';
import { migrateDatabase } from '@/db/migrate';
import * as schema from '@/db/schema';
import { isDatabaseEmpty, KEPT_BY_WIPE, seedDatabase, seededSiteId, WIPE_ORDER, type SeedSummary } from '@/db/seed';
import { createCredential } from '@/lib/platform/auth/credentials';
import { contentDigest } from './support/database';

const ROOT = new URL('..', import.meta.url).pathname;
const dirs: string[] = [];

async function freshDatabase(): Promise<Database> {
  const dir = mkdtempSync(join(tmpdir(), 'seed-test-'));
  dirs.push(dir);
  const url = `file:${join(dir, 'site.db')}`;
  const database = openDatabase({ url });
  await migrateDatabase(database);
  return database;
}

/** The availability rule the API applies (implemented in lib/commerce; restated to test the data). */
function status(level: { quantity: number; lowStockThreshold: number; policy: string }): string {
  if (level.policy === 'continue') return 'in_stock';
  if (level.quantity > level.lowStockThreshold) return 'in_stock';
  if (level.quantity > 0) return 'low_stock';
  return level.policy === 'preorder' ? 'preorder' : 'out_of_stock';
}

let database: Database;
let summary: SeedSummary;
const DEMO = seededSiteId('demo');
const OUTLET = seededSiteId('outlet');

beforeAll(async () => {
  database = await freshDatabase();
  expect(await isDatabaseEmpty(database)).toBe(true);
  summary = await seedDatabase(database, { checkoutBaseUrl: 'https://checkout.example/checkout' });
});

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function productsOf(siteId: string) {
  return database.select().from(schema.products).where(eq(schema.products.siteId, siteId));
}

async function variantsWithStock(siteId: string, handle: string) {
  return database
    .select({ title: schema.productVariants.title, level: schema.inventoryLevels })
    .from(schema.productVariants)
    .innerJoin(schema.products, eq(schema.products.id, schema.productVariants.productId))
    .innerJoin(schema.inventoryLevels, eq(schema.inventoryLevels.variantId, schema.productVariants.id))
    .where(and(eq(schema.products.siteId, siteId), eq(schema.products.handle, handle)));
}

describe('sites and markets', () => {
  it('is no longer empty and reports both Sites', async () => {
    expect(await isDatabaseEmpty(database)).toBe(false);
    expect(summary.sites.map((s) => [s.handle, s.id])).toEqual([
      ['demo', DEMO],
      ['outlet', OUTLET],
    ]);
    expect(DEMO).toMatch(/^site_[0-9A-Za-z]{16,22}$/);
  });

  it('gives demo the se, de and us markets with their currencies, countries and locales', async () => {
    const [site] = await database.select().from(schema.sites).where(eq(schema.sites.handle, 'demo'));
    expect(site).toMatchObject({
      id: DEMO,
      defaultMarketId: 'se',
      defaultLocale: 'sv-SE',
      checkoutBaseUrl: 'https://checkout.example/checkout',
    });
    const markets = await database.select().from(schema.markets).where(eq(schema.markets.siteId, DEMO));
    const byId = Object.fromEntries(markets.map((m) => [m.id, m]));
    expect(byId.se).toMatchObject({ currency: 'SEK', defaultLocale: 'sv-SE', taxInclusive: true, taxRateBp: 2500 });
    expect(byId.de).toMatchObject({ currency: 'EUR', defaultLocale: 'de-DE', taxInclusive: true, taxRateBp: 1900 });
    expect(byId.us).toMatchObject({ currency: 'USD', defaultLocale: 'en-US', taxInclusive: false, taxRateBp: 0 });
    const countries = await database.select().from(schema.marketCountries).where(eq(schema.marketCountries.siteId, DEMO));
    expect(Object.fromEntries(countries.map((c) => [c.country, c.marketId]))).toEqual({ SE: 'se', DE: 'de', AT: 'de', US: 'us' });
    const locales = await database.select().from(schema.marketLocales).where(eq(schema.marketLocales.siteId, DEMO));
    expect(locales.map((l) => `${l.marketId}:${l.locale}`).sort()).toEqual(['de:de-DE', 'de:en-DE', 'se:en-SE', 'se:sv-SE', 'us:en-US']);
  });

  it('gives outlet the se market only', async () => {
    const markets = await database.select().from(schema.markets).where(eq(schema.markets.siteId, OUTLET));
    expect(markets.map((m) => m.id)).toEqual(['se']);
    const locales = await database.select().from(schema.marketLocales).where(eq(schema.marketLocales.siteId, OUTLET));
    expect(locales.map((l) => l.locale).sort()).toEqual(['en-SE', 'sv-SE']);
  });
});

describe('demo catalogue', () => {
  it('has at least 44 published and the three unpublished products', async () => {
    const products = await productsOf(DEMO);
    expect(products.filter((p) => p.status === 'published').length).toBeGreaterThanOrEqual(44);
    const hidden = Object.fromEntries(products.filter((p) => p.status !== 'published').map((p) => [p.handle, p.status]));
    expect(Object.keys(hidden).length).toBeGreaterThanOrEqual(3);
    expect(hidden['draft-winter-parka']).toBe('draft');
    expect(Object.values(hidden)).toContain('archived');
    for (const p of products) {
      expect(p.handle).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(p.id).toMatch(/^prod_[0-9A-Za-z]{16,22}$/);
    }
  });

  it('has the special handles published', async () => {
    const products = await productsOf(DEMO);
    const published = new Set(products.filter((p) => p.status === 'published').map((p) => p.handle));
    for (const handle of ['aurora-wool-throw', 'fjord-ceramic-mug', 'polar-down-jacket', 'morning-coffee-set', 'linen-tote-bag']) {
      expect(published.has(handle), handle).toBe(true);
    }
  });

  it('has every required stock situation', async () => {
    const aurora = await variantsWithStock(DEMO, 'aurora-wool-throw');
    expect(aurora.length).toBeGreaterThan(0);
    expect(aurora.every((v) => status(v.level) === 'out_of_stock' && v.level.quantity === 0 && v.level.policy === 'deny')).toBe(true);
    const mug = await variantsWithStock(DEMO, 'fjord-ceramic-mug');
    expect(mug.some((v) => status(v.level) === 'low_stock')).toBe(true);
    const jacket = await variantsWithStock(DEMO, 'polar-down-jacket');
    expect(jacket.some((v) => status(v.level) === 'preorder' && v.level.quantity === 0)).toBe(true);
    const tote = Object.fromEntries((await variantsWithStock(DEMO, 'linen-tote-bag')).map((v) => [v.title, status(v.level)]));
    expect(tote).toEqual({ Natural: 'in_stock', Black: 'out_of_stock' });
    const levels = await database.select().from(schema.inventoryLevels);
    expect(new Set(levels.map((l) => l.policy))).toEqual(new Set(['deny', 'preorder', 'continue']));
    expect(levels.every((l) => l.lowStockThreshold === 5)).toBe(true);
  });

  it('gives every product translations, seo, images, options and priced variants', async () => {
    const products = await productsOf(DEMO);
    const ids = products.map((p) => p.id);
    const translations = await database.select().from(schema.productTranslations).where(inArray(schema.productTranslations.productId, ids));
    const images = await database.select().from(schema.productImages).where(inArray(schema.productImages.productId, ids));
    const variants = await database.select().from(schema.productVariants).where(eq(schema.productVariants.siteId, DEMO));
    const prices = await database
      .select()
      .from(schema.variantPrices)
      .where(
        inArray(
          schema.variantPrices.variantId,
          variants.map((v) => v.id),
        ),
      );
    for (const product of products) {
      const texts = translations.filter((t) => t.productId === product.id);
      expect(texts.map((t) => t.locale).sort()).toEqual(['de-DE', 'en-DE', 'en-SE', 'en-US', 'sv-SE']);
      const by = Object.fromEntries(texts.map((t) => [t.locale, t]));
      expect(by['sv-SE']?.description).not.toBe(by['en-SE']?.description);
      expect(by['de-DE']?.description).not.toBe(by['en-DE']?.description);
      expect(by['en-SE']?.title).toBe(by['en-US']?.title);
      for (const t of texts) expect(t.seoTitle && t.seoDescription && t.title && t.description).toBeTruthy();

      const pics = images.filter((i) => i.productId === product.id);
      expect(pics.length).toBeGreaterThanOrEqual(1);
      expect(pics.length).toBeLessThanOrEqual(3);
      for (const pic of pics) {
        expect(pic).toMatchObject({ width: 800, height: 800 });
        expect(pic.alt.length).toBeGreaterThan(0);
        expect(pic.url).toMatch(/^\/products\/[a-z0-9-]+\.svg$/);
        expect(existsSync(join(ROOT, 'public', pic.url)), pic.url).toBe(true);
      }

      const own = variants.filter((v) => v.productId === product.id);
      expect(own.length).toBeGreaterThanOrEqual(1);
      expect(own.length).toBeLessThanOrEqual(6);
      expect(product.options.length).toBeGreaterThanOrEqual(1);
      for (const v of own) {
        expect(v.id).toMatch(/^var_[0-9A-Za-z]{16,22}$/);
        expect(Object.keys(v.options)).toEqual(product.options.map((o) => o.name));
        for (const o of product.options) expect(o.values).toContain(v.options[o.name]);
        const own$ = prices.filter((p) => p.variantId === v.id);
        expect(own$.map((p) => p.marketId).sort()).toEqual(['de', 'se', 'us']);
        for (const p of own$) {
          expect(Number.isInteger(p.amount) && p.amount > 0).toBe(true);
          if (p.compareAtAmount !== null) expect(p.compareAtAmount).toBeGreaterThan(p.amount);
        }
      }
    }
    expect(prices.some((p) => p.compareAtAmount !== null)).toBe(true);
    expect(new Set(variants.map((v) => v.sku)).size).toBe(variants.length);
  });

  it('shows each published product with a picture of its own', async () => {
    const products = (await productsOf(DEMO)).filter((p) => p.status === 'published');
    const images = await database
      .select()
      .from(schema.productImages)
      .where(
        inArray(
          schema.productImages.productId,
          products.map((p) => p.id),
        ),
      );
    // The picture a list shows: the product's first image (lowest position).
    const first = new Map<string, { url: string; position: number }>();
    for (const image of images) {
      const seen = first.get(image.productId);
      if (!seen || image.position < seen.position) first.set(image.productId, image);
    }
    const urls = products.map((p) => first.get(p.id)?.url);
    expect(urls.every(Boolean)).toBe(true);
    const shared = urls.filter((url, i) => urls.indexOf(url) !== i);
    expect(shared).toEqual([]);
  });

  it('features eight published products in order', async () => {
    const featured = (await productsOf(DEMO)).filter((p) => p.featuredPosition !== null);
    expect(featured.map((p) => p.featuredPosition).sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(featured.every((p) => p.status === 'published')).toBe(true);
  });

  it('has a bundle with items and a price per market on morning-coffee-set', async () => {
    const [product] = await database
      .select()
      .from(schema.products)
      .where(and(eq(schema.products.siteId, DEMO), eq(schema.products.handle, 'morning-coffee-set')));
    const bundles = await database
      .select()
      .from(schema.bundles)
      .where(eq(schema.bundles.productId, product?.id ?? ''));
    expect(bundles.length).toBeGreaterThanOrEqual(1);
    for (const bundle of bundles) {
      expect(bundle.id).toMatch(/^bun_/);
      const items = await database.select().from(schema.bundleItems).where(eq(schema.bundleItems.bundleId, bundle.id));
      expect(items.length).toBeGreaterThanOrEqual(2);
      const prices = await database.select().from(schema.bundlePrices).where(eq(schema.bundlePrices.bundleId, bundle.id));
      expect(prices.map((p) => p.marketId).sort()).toEqual(['de', 'se', 'us']);
    }
  });

  it('has at least six collections whose stored order is not alphabetical and hides nothing', async () => {
    const collections = await database.select().from(schema.collections).where(eq(schema.collections.siteId, DEMO));
    expect(collections.length).toBeGreaterThanOrEqual(6);
    expect(collections.map((c) => c.handle)).toEqual(
      expect.arrayContaining(['kitchen', 'living-room', 'textiles', 'outdoor', 'lighting', 'new-arrivals']),
    );
    const members = await database
      .select({
        collection: schema.collections.handle,
        position: schema.collectionProducts.position,
        handle: schema.products.handle,
        status: schema.products.status,
      })
      .from(schema.collectionProducts)
      .innerJoin(schema.collections, eq(schema.collections.id, schema.collectionProducts.collectionId))
      .innerJoin(schema.products, eq(schema.products.id, schema.collectionProducts.productId))
      .where(eq(schema.collections.siteId, DEMO))
      .orderBy(schema.collections.handle, schema.collectionProducts.position);
    const kitchen = members.filter((m) => m.collection === 'kitchen').map((m) => m.handle);
    expect(kitchen).not.toEqual([...kitchen].sort());
    expect(members.some((m) => m.status !== 'published')).toBe(true);
    expect(members.some((m) => m.handle === 'draft-winter-parka')).toBe(true);
    for (const c of collections) {
      expect(c.imageUrl && existsSync(join(ROOT, 'public', c.imageUrl)), c.handle).toBe(true);
      expect(members.filter((m) => m.collection === c.handle).length).toBeGreaterThan(0);
    }
  });
});

describe('outlet', () => {
  it('is a small shop sharing some handles with demo under other ids', async () => {
    const products = await productsOf(OUTLET);
    expect(products.length).toBeGreaterThanOrEqual(6);
    expect(products.length).toBeLessThanOrEqual(12);
    const demo = await productsOf(DEMO);
    const tote = products.find((p) => p.handle === 'linen-tote-bag');
    const demoTote = demo.find((p) => p.handle === 'linen-tote-bag');
    expect(tote && demoTote && tote.id !== demoTote.id).toBe(true);
    const collections = await database.select().from(schema.collections).where(eq(schema.collections.siteId, OUTLET));
    expect(collections.length).toBe(2);
    const variants = await database.select().from(schema.productVariants).where(eq(schema.productVariants.siteId, OUTLET));
    const prices = await database
      .select()
      .from(schema.variantPrices)
      .where(
        inArray(
          schema.variantPrices.variantId,
          variants.map((v) => v.id),
        ),
      );
    expect(new Set(prices.map((p) => p.marketId))).toEqual(new Set(['se']));
  });
});

describe('flows, shipping and addresses', () => {
  it('has an enabled default stock flow on both Sites and a disabled sms-legacy on demo', async () => {
    const flows = await database.select().from(schema.notificationFlows);
    for (const siteId of [DEMO, OUTLET]) {
      const flow = flows.find((f) => f.siteId === siteId && f.handle === 'back-in-stock-email');
      expect(flow).toMatchObject({ kind: 'stock', channel: 'email', enabled: true, isDefault: true });
    }
    expect(flows.find((f) => f.siteId === DEMO && f.handle === 'sms-legacy')).toMatchObject({
      channel: 'sms',
      enabled: false,
      isDefault: false,
    });
    expect(flows.find((f) => f.siteId === OUTLET && f.handle === 'sms-legacy')).toBeUndefined();
  });

  it('has two delivery speeds and a pickup rate per Site and market', async () => {
    const rates = await database.select().from(schema.shippingRates);
    for (const [siteId, markets] of [
      [DEMO, ['se', 'de', 'us']],
      [OUTLET, ['se']],
    ] as const) {
      for (const market of markets) {
        const own = rates.filter((r) => r.siteId === siteId && r.marketId === market);
        expect(own.filter((r) => r.kind === 'delivery').length).toBeGreaterThanOrEqual(2);
        expect(own.filter((r) => r.kind === 'pickup').length).toBeGreaterThanOrEqual(1);
      }
    }
    expect(rates.find((r) => r.id === 'ship_se_standard')).toMatchObject({ siteId: DEMO, amount: 4900, minDays: 3, maxDays: 5 });
    expect(rates.find((r) => r.id === 'ship_de_express')).toMatchObject({ amount: 990, minDays: 1, maxDays: 2 });
    expect(rates.find((r) => r.id === 'ship_us_pickup')).toMatchObject({ kind: 'pickup', amount: 499 });
  });

  it('has at least 60 addresses per country that prefix search finds', async () => {
    const rows = await database.select().from(schema.addressBook);
    for (const country of ['SE', 'DE', 'AT', 'US']) expect(rows.filter((r) => r.country === country).length).toBeGreaterThanOrEqual(60);
    for (const row of rows) expect(row.streetKey).toBe(row.street.toLowerCase());
    const count = async (country: string, prefix: string) =>
      (
        await database
          .select()
          .from(schema.addressBook)
          .where(and(eq(schema.addressBook.country, country), like(schema.addressBook.streetKey, `${prefix}%`)))
      ).length;
    for (const [country, prefix] of [
      ['SE', 'dro'],
      ['SE', 'kun'],
      ['SE', 'sto'],
      ['DE', 'hau'],
      ['DE', 'bah'],
      ['AT', 'hau'],
      ['AT', 'bah'],
      ['US', 'mai'],
      ['US', 'oak'],
    ] as const) {
      expect(await count(country, prefix), `${country} ${prefix}`).toBeGreaterThanOrEqual(3);
    }
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
  });

  it('has at least eight pickup points per country with opening hours', async () => {
    const points = await database.select().from(schema.pickupPoints);
    for (const country of ['SE', 'DE', 'AT', 'US']) {
      const own = points.filter((p) => p.country === country);
      expect(own.length).toBeGreaterThanOrEqual(8);
      expect(new Set(own.map((p) => p.postalCode.slice(0, 1))).size).toBeGreaterThanOrEqual(3);
    }
    for (const p of points) expect(Object.keys(p.openingHours).length).toBeGreaterThan(0);
  });
});

describe('wipe and determinism', () => {
  it('wipes every table of the schema but the auth epoch, which it leaves in place', async () => {
    const tables = (Object.values(schema) as unknown[]).filter((v): v is SQLiteTable => is(v, SQLiteTable));
    expect(new Set([...WIPE_ORDER, ...KEPT_BY_WIPE].map(getTableName))).toEqual(new Set(tables.map(getTableName)));
    expect(WIPE_ORDER.some((t) => KEPT_BY_WIPE.includes(t))).toBe(false);
    const [before] = await database.select().from(schema.authEpoch);
    await seedDatabase(database, { checkoutBaseUrl: 'https://checkout.example/checkout' });
    const [after] = await database.select().from(schema.authEpoch);
    // the wipe and the new credentials and Sites each moved it
    expect(after!.n).toBeGreaterThan(before!.n);
  });

  it('reseeding wipes credentials and gives byte-identical data', async () => {
    const before = await contentDigest(database);
    const productIds = (await productsOf(DEMO)).map((p) => p.id).sort();
    await createCredential(database, { siteHandle: 'demo', scope: 'core' });
    await seedDatabase(database, { checkoutBaseUrl: 'https://checkout.example/checkout' });
    expect(await database.select().from(schema.credentials)).toEqual([]);
    expect((await productsOf(DEMO)).map((p) => p.id).sort()).toEqual(productIds);
    expect(await contentDigest(database)).toBe(before);

    const other = await freshDatabase();
    await seedDatabase(other, { checkoutBaseUrl: 'https://checkout.example/checkout' });
    expect(await contentDigest(other)).toBe(before);
  });

  it('builds a larger benchmark catalogue with --products', async () => {
    const bench = await freshDatabase();
    const result = await seedDatabase(bench, { products: 300 });
    const demo = result.sites.find((s) => s.handle === 'demo');
    const base = summary.sites.find((s) => s.handle === 'demo');
    expect(demo?.publishedProducts).toBe((base?.publishedProducts ?? 0) + 300);
    expect(demo?.variants).toBeGreaterThan((base?.variants ?? 0) + 600);
    const variants = await bench.select({ id: schema.productVariants.id, sku: schema.productVariants.sku }).from(schema.productVariants);
    const prices = await bench.select().from(schema.variantPrices);
    expect(prices.length).toBe(
      variants.filter((v) => v.sku.startsWith('NLH')).length * 3 + variants.filter((v) => v.sku.startsWith('NLO')).length,
    );
    expect(new Set(variants.map((v) => v.sku)).size).toBe(variants.length);
    const images = await bench.select({ url: schema.productImages.url }).from(schema.productImages);
    for (const url of new Set(images.map((i) => i.url))) expect(existsSync(join(ROOT, 'public', url)), url).toBe(true);
  });

  it('seeds the demo Site without its catalog, and the outlet whole, with demoCatalog: false', async () => {
    const empty = await freshDatabase();
    const result = await seedDatabase(empty, { demoCatalog: false });
    expect(result.sites.find((s) => s.handle === 'demo')?.publishedProducts).toBe(0);
    for (const table of [schema.products, schema.collections]) {
      expect(await empty.select().from(table).where(eq(table.siteId, DEMO)), getTableName(table)).toEqual([]);
    }
    // A bundle belongs to its product's Site.
    const bundleSites = await empty
      .select({ siteId: schema.products.siteId })
      .from(schema.bundles)
      .innerJoin(schema.products, eq(schema.products.id, schema.bundles.productId));
    expect(bundleSites.filter((b) => b.siteId === DEMO)).toEqual([]);
    const outlet = await empty.select().from(schema.products).where(eq(schema.products.siteId, OUTLET));
    expect(outlet.map((p) => p.id).sort()).toEqual((await productsOf(OUTLET)).map((p) => p.id).sort());
    expect(await empty.select().from(schema.sites)).toHaveLength(2);
  });
});
