import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asc, eq, getTableName } from 'drizzle-orm';
import { execute, openDatabase, type Database } from '@/db';
import { migrateDatabase } from '@/db/migrate';
import { seedDatabase, WIPE_ORDER, type SeedOptions } from '@/db/seed';
import { productVariants, products, sites } from '@/db/schema';

export type TestDatabase = { database: Database; url: string; file: string; dir: string };

/**
 * A database file of its own in a new temporary folder, migrated, and seeded with the demo
 * unless `seed: false` (or seeded with the options given).
 */
export async function freshDatabase(options: { seed?: boolean | SeedOptions; busyTimeoutMs?: number } = {}): Promise<TestDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'sd-test-'));
  const file = join(dir, 'site.db');
  const url = `file:${file}`;
  const database = openDatabase({ url, busyTimeoutMs: options.busyTimeoutMs });
  await migrateDatabase(database);
  const seed = options.seed ?? true;
  if (seed) await seedDatabase(database, seed === true ? {} : seed);
  return { database, url, file, dir };
}

/** The first variant (by position) of a Site's first product in that order: a line for a cart. */
export async function firstVariantOf(database: Database, siteHandle: string): Promise<string> {
  const [row] = await database
    .select({ id: productVariants.id })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .innerJoin(sites, eq(sites.id, products.siteId))
    .where(eq(sites.handle, siteHandle))
    .orderBy(asc(productVariants.position))
    .limit(1);
  return row!.id;
}

/** A digest of every catalog and signup row (the tables a reseed wipes): equal digests, equal data. */
export async function contentDigest(database: Database): Promise<string> {
  const hash = createHash('sha256');
  for (const table of WIPE_ORDER) {
    const result = await execute(database, `SELECT * FROM "${getTableName(table)}" ORDER BY rowid`);
    hash.update(getTableName(table)).update(JSON.stringify(result.rows));
  }
  return hash.digest('hex');
}
