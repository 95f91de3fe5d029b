import { join } from 'node:path';
import { openDatabase } from '@/db/client';
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
  /** Published handles spread evenly over the whole catalog (handle order). */
  handles: string[];
  /** Every published handle, in an order that spreads consecutive requests over the catalog. */
  allHandles: string[];
  /** Variant ids spread evenly over the whole catalog. */
  variantIds: string[];
  seedSeconds: number;
};

const SAMPLE = 100;

function spread<T>(items: T[], n: number): T[] {
  if (items.length <= n) return items;
  const out: T[] = [];
  for (let i = 0; i < n; i += 1) out.push(items[Math.floor((i * items.length) / n)]!);
  return out;
}

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
    // Candidates only; the scenarios keep what the API itself answers 200 for.
    const handles = (await database.$client.execute(
      `select p.handle from products p join sites s on s.id = p.site_id where s.handle = 'demo' and p.status = 'published' order by p.handle`,
    )).rows.map((r) => String(r.handle));
    const variantIds = (await database.$client.execute(
      `select v.id from product_variants v join sites s on s.id = v.site_id join products p on p.id = v.product_id
        where s.handle = 'demo' and p.status = 'published' order by v.id`,
    )).rows.map((r) => String(r.id));
    return { products, url, credentials, storefront, handles: spread(handles, SAMPLE * 2), allHandles: interleave(handles), variantIds: spread(variantIds, 1000), seedSeconds };
  } finally {
    database.$client.close();
  }
}
