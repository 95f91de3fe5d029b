import { rmSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inventoryLevels, sites } from '@/db/schema';
import { availabilityStatus, type StockLevel } from '@/lib/commerce/availability';
import { readCatalogVariants } from '@/lib/commerce/checkout/catalog-lines';
import { authenticateCredential, createCredential } from '@/lib/platform/auth/credentials';
import { freshDatabase, type TestDatabase } from './support/database';
import { closeDatabase, execute } from '@/db';

// A stock level moves the catalog version (which every cached answer and kept product page
// is keyed on) only when the variant's status changes: no answer shows a quantity. Every
// change moves the stock version, so checkout, which checks quantities, never sells from
// a stale one. Changes go straight into the database, as an import or a stock sync would.

describe('stock changes and the versions they move', () => {
  let t: TestDatabase;
  let token: string;
  let variantId: string;

  const versions = async () => {
    const [row] = await t.database
      .select({ catalog: sites.catalogVersion, stock: sites.stockVersion })
      .from(sites)
      .where(eq(sites.handle, 'demo'));
    return row!;
  };
  const setLevel = (level: StockLevel) => t.database.update(inventoryLevels).set(level).where(eq(inventoryLevels.variantId, variantId));

  beforeAll(async () => {
    t = await freshDatabase();
    token = (await createCredential(t.database, { siteHandle: 'demo', scope: 'core' })).token;
    const context = await authenticateCredential(t.database, token);
    const rows = await execute(t.database, {
      sql: 'SELECT il.variant_id AS id FROM inventory_levels il JOIN product_variants v ON v.id = il.variant_id WHERE v.site_id = ? LIMIT 1',
      args: [context!.site.id],
    });
    variantId = String(rows.rows[0]!.id);
  });
  afterAll(() => {
    closeDatabase(t.database);
    rmSync(t.dir, { recursive: true, force: true });
  });

  it('moves the catalog version exactly when the status changes (the trigger agrees with availabilityStatus)', async () => {
    // Every transition between these levels: each status, each boundary of the threshold.
    const levels: StockLevel[] = [];
    for (const policy of ['deny', 'preorder', 'continue'] as const) {
      for (const quantity of [-1, 0, 1, 4, 5, 6, 50]) levels.push({ quantity, lowStockThreshold: 5, policy });
      levels.push({ quantity: 3, lowStockThreshold: 2, policy }, { quantity: 3, lowStockThreshold: 3, policy });
    }
    const walk = [...levels, ...[...levels].reverse(), ...levels.filter((_, i) => i % 2 === 0), ...levels.filter((_, i) => i % 3 === 0)];
    await setLevel(walk[0]!);
    let previous = walk[0]!;
    let statusChanges = 0;
    let quietChanges = 0;
    for (const level of walk.slice(1)) {
      const before = await versions();
      await setLevel(level);
      const after = await versions();
      const changed = availabilityStatus(previous) !== availabilityStatus(level);
      expect(after.catalog - before.catalog, `${JSON.stringify(previous)} → ${JSON.stringify(level)}`).toBe(changed ? 1 : 0);
      expect(after.stock - before.stock).toBe(1);
      if (changed) statusChanges++;
      else quietChanges++;
      previous = level;
    }
    // The walk tells both kinds apart many times over.
    expect(statusChanges).toBeGreaterThan(10);
    expect(quietChanges).toBeGreaterThan(10);
  });

  it('moves both when a level appears or goes', async () => {
    const [level] = await t.database.select().from(inventoryLevels).where(eq(inventoryLevels.variantId, variantId));
    const before = await versions();
    await t.database.delete(inventoryLevels).where(eq(inventoryLevels.variantId, variantId));
    const gone = await versions();
    expect([gone.catalog - before.catalog, gone.stock - before.stock]).toEqual([1, 1]);
    await t.database.insert(inventoryLevels).values(level!);
    const back = await versions();
    expect([back.catalog - gone.catalog, back.stock - gone.stock]).toEqual([1, 1]);
  });

  it('lets checkout see a quantity that changed within one status at once', async () => {
    await setLevel({ quantity: 40, lowStockThreshold: 5, policy: 'deny' });
    const site = async () => (await authenticateCredential(t.database, token))!.site;
    const before = await site();
    const read = async () => (await readCatalogVariants(t.database, await site(), 'se', 'en-SE', [variantId])).get(variantId)!.level;
    expect(await read()).toMatchObject({ quantity: 40 });

    await setLevel({ quantity: 7, lowStockThreshold: 5, policy: 'deny' }); // still in stock
    const after = await site();
    expect(after.catalogVersion).toBe(before.catalogVersion);
    expect(after.stockVersion).toBeGreaterThan(before.stockVersion);
    expect(await read()).toMatchObject({ quantity: 7 });
  });
});
