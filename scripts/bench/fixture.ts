import { join } from 'node:path';
import { closeDatabase, execute, openDatabase } from '@/db';
import { migrateDatabase } from '@/db/migrate';
import { seedDatabase } from '@/db/seed';
import { createCredential } from '@/lib/platform/auth/credentials';

/** A seeded database file and what the scenarios need from it. */
export type Fixture = {
  products: number;
  url: string;
  /** One core credential per scenario, so no scenario eats another's rate-limit budget. */
  credentials: string[];
  /** The storefront's own credential (server env SITE_API_CREDENTIAL). */
  storefront: string;
  /** Every handle the API answers in the default market, in an order that spreads consecutive requests over the catalog. */
  allHandles: string[];
  /** Every variant of those products, spread the same way. */
  variantIds: string[];
  seedSeconds: number;
};

/** Every item once, consecutive picks far apart (stride through the list). */
function interleave<T>(items: T[]): T[] {
  const stride = 97;
  const out: T[] = [];
  for (let start = 0; start < stride; start += 1) for (let i = start; i < items.length; i += stride) out.push(items[i]!);
  return out;
}

export async function makeFixture(dir: string, products: number, baseUrl: string, credentialCount: number): Promise<Fixture> {
  const url = `file:${join(dir, `site-${products}.db`)}`;
  const database = openDatabase({ url });
  try {
    const started = Date.now();
    await migrateDatabase(database, url);
    await seedDatabase(database, { products, checkoutBaseUrl: `${baseUrl}/checkout` });
    const seedSeconds = (Date.now() - started) / 1000;
    const credentials: string[] = [];
    for (let i = 0; i < credentialCount; i += 1) {
      credentials.push((await createCredential(database, { siteHandle: 'demo', scope: 'core', label: `bench ${i}` })).token);
    }
    const storefront = (await createCredential(database, { siteHandle: 'demo', scope: 'extended', label: 'bench storefront' })).token;
    // Published and priced in the default market: what the API answers 200 for there.
    const sold = `from products p join sites s on s.id = p.site_id
      where s.handle = 'demo' and p.status = 'published' and exists (select 1 from product_variants v
        join variant_prices vp on vp.variant_id = v.id and vp.market_id = s.default_market_id where v.product_id = p.id)`;
    const handles = (await execute(database, `select p.handle ${sold} order by p.handle`)).rows.map((r) => String(r.handle));
    const variantIds = (
      await execute(database, `select v.id from product_variants v where v.product_id in (select p.id ${sold}) order by v.id`)
    ).rows.map((r) => String(r.id));
    return { products, url, credentials, storefront, allHandles: interleave(handles), variantIds: interleave(variantIds), seedSeconds };
  } finally {
    closeDatabase(database);
  }
}

/**
 * Raises the prices of one product in every market by 1.00, as an admin tool would, straight
 * in the database: the catalog version moves, and with it every kept page's key. Answers its
 * handle.
 */
export async function changeOnePrice(fixture: Fixture): Promise<string> {
  const database = openDatabase({ url: fixture.url });
  try {
    const handle = fixture.allHandles[fixture.allHandles.length >> 2]!;
    await execute(database, {
      sql: `UPDATE variant_prices SET amount = amount + 100 WHERE variant_id IN
        (SELECT v.id FROM product_variants v JOIN products p ON p.id = v.product_id JOIN sites s ON s.id = p.site_id WHERE s.handle = 'demo' AND p.handle = ?)`,
      args: [handle],
    });
    return handle;
  } finally {
    closeDatabase(database);
  }
}
