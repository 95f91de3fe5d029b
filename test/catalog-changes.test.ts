import { rmSync } from 'node:fs';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDatabase, openDatabase, type Database } from '@/db';
import {
  catalogChanges,
  collectionTranslations,
  collections,
  inventoryLevels,
  markets,
  productVariants,
  products,
  sites,
  variantPrices,
} from '@/db/schema';
import { catchUp, freshnessFor, unchangedSince } from '@/lib/platform/cache/catalog-changes';
import { freshDatabase, type TestDatabase } from './support/database';

// Per-scope freshness: every catalog change says what it touched (table catalog_changes), so
// an answer kept at one catalog version still holds after changes to other products. Changes
// go straight into the database through a second connection, as another instance would.

let t: TestDatabase;
let other: Database;
let siteId: string;

beforeAll(async () => {
  t = await freshDatabase();
  other = openDatabase({ url: t.url });
  const [site] = await t.database.select({ id: sites.id }).from(sites).where(eq(sites.handle, 'demo'));
  siteId = site!.id;
});
afterAll(() => {
  closeDatabase(other);
  closeDatabase(t.database);
  rmSync(t.dir, { recursive: true, force: true });
});

const site = async () => {
  const [row] = await t.database.select({ id: sites.id, catalogVersion: sites.catalogVersion }).from(sites).where(eq(sites.id, siteId));
  return row!;
};
const scopeVersion = async (scope: string) => {
  const [row] = await t.database
    .select({ version: catalogChanges.version })
    .from(catalogChanges)
    .where(and(eq(catalogChanges.siteId, siteId), eq(catalogChanges.scope, scope)));
  return row?.version ?? null;
};
/** The product, its first variant, and that variant's stock level. */
const aProduct = async (handle: string) => {
  const [row] = await t.database
    .select({ productId: products.id, variantId: productVariants.id })
    .from(products)
    .innerJoin(productVariants, eq(productVariants.productId, products.id))
    .where(and(eq(products.siteId, siteId), eq(products.handle, handle)))
    .limit(1);
  return row!;
};

describe('catalog change scopes', () => {
  it('are written by every trigger that moves the catalog version', async () => {
    const triggers = await t.database.all<{ name: string; sql: string }>(sql`SELECT name, sql FROM sqlite_master WHERE type = 'trigger'`);
    const bumping = triggers.filter((trigger) => /catalog_version\s*=\s*catalog_version/.test(trigger.sql));
    expect(bumping.length).toBeGreaterThan(40);
    // a trigger that moved the version without saying what changed would leave answers kept that are not
    expect(bumping.filter((trigger) => !trigger.sql.includes('INSERT INTO catalog_changes')).map((trigger) => trigger.name)).toEqual([]);
  });

  it('name the product, the collection, or the whole Site, at the version the change moved to', async () => {
    const mug = await aProduct('fjord-ceramic-mug');
    await other
      .update(variantPrices)
      .set({ amount: sql`${variantPrices.amount} + 1` })
      .where(eq(variantPrices.variantId, mug.variantId));
    const afterPrice = await site();
    expect(await scopeVersion('product:fjord-ceramic-mug')).toBe(afterPrice.catalogVersion);
    expect(await scopeVersion('product:linen-tote-bag')).toBeLessThan(afterPrice.catalogVersion);

    const [collection] = await t.database.select().from(collections).where(eq(collections.siteId, siteId)).limit(1);
    await other
      .update(collectionTranslations)
      .set({ title: sql`${collectionTranslations.title} || ' '` })
      .where(eq(collectionTranslations.collectionId, collection!.id));
    expect(await scopeVersion(`collection:${collection!.handle}`)).toBe((await site()).catalogVersion);

    await other
      .update(markets)
      .set({ currency: sql`${markets.currency}` })
      .where(eq(markets.siteId, siteId));
    expect(await scopeVersion('site')).toBe((await site()).catalogVersion);

    // a renamed product: the old handle's answers and the new one's are both stale
    await other.update(products).set({ handle: 'fjord-mug-renamed' }).where(eq(products.id, mug.productId));
    const renamed = (await site()).catalogVersion;
    expect(await scopeVersion('product:fjord-ceramic-mug')).toBe(renamed);
    expect(await scopeVersion('product:fjord-mug-renamed')).toBe(renamed);
    await other.update(products).set({ handle: 'fjord-ceramic-mug' }).where(eq(products.id, mug.productId));
  });

  it('leave a product alone when its stock moves without changing its status', async () => {
    const tote = await aProduct('linen-tote-bag');
    await other
      .update(inventoryLevels)
      .set({ quantity: 50, lowStockThreshold: 5, policy: 'deny' })
      .where(eq(inventoryLevels.variantId, tote.variantId));
    const before = await scopeVersion('product:linen-tote-bag');
    await other.update(inventoryLevels).set({ quantity: 40 }).where(eq(inventoryLevels.variantId, tote.variantId));
    expect(await scopeVersion('product:linen-tote-bag')).toBe(before);
    await other.update(inventoryLevels).set({ quantity: 0 }).where(eq(inventoryLevels.variantId, tote.variantId));
    expect(await scopeVersion('product:linen-tote-bag')).toBe((await site()).catalogVersion);
  });

  it("tell an instance which kept answers still hold after another instance's change", async () => {
    const at = await site();
    const kept = { validAt: at.catalogVersion, scopes: ['product:fjord-ceramic-mug'] };
    const keptToo = { validAt: at.catalogVersion, scopes: ['product:linen-tote-bag', 'collection:kitchen'] };
    const fresh = await freshnessFor(t.database, at);
    expect(fresh.holds(kept)).toBe(true);
    expect(catchUp(t.database, at)).toBeNull(); // already caught up: no read, no promise

    const mug = await aProduct('fjord-ceramic-mug');
    await other
      .update(variantPrices)
      .set({ amount: sql`${variantPrices.amount} + 1` })
      .where(eq(variantPrices.variantId, mug.variantId));
    const now = await site();
    // not caught up to the new version yet: it cannot tell, so nothing holds
    expect(unchangedSince(t.database, siteId, keptToo.scopes, now.catalogVersion)).toBe(false);
    const later = await freshnessFor(t.database, now);
    expect(later.holds(kept)).toBe(false);
    expect(later.holds(keptToo)).toBe(true);
    expect(later.holds({ validAt: now.catalogVersion, scopes: kept.scopes })).toBe(true);
    // an entry that names no scopes is never taken for one kept per scope
    expect(later.holds({ validAt: now.catalogVersion })).toBe(false);
  });
});
