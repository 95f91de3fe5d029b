import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { closeDatabase, execute, openDatabase, type Database } from '@/db';
import { migrateDatabase } from '@/db/migrate';
import { seedDatabase } from '@/db/seed';
import { CATALOG_FORMAT, CATALOG_FORMAT_VERSION, type CatalogDocument, type CatalogProduct } from '@/lib/contract/catalog-document';
import { exportCatalogTo } from '@/lib/commerce/catalog/transfer';
import { createCredential } from '@/lib/platform/auth/credentials';
import { runToCompletion } from './processes';

/** A seeded database file and what the scenarios need from it. */
export type Fixture = {
  products: number;
  /** The folder its database (and the files a merchant would edit) are in. */
  dir: string;
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
    await migrateDatabase(database);
    await seedDatabase(database, { products, checkoutBaseUrl: `${baseUrl}/checkout` });
    const seedSeconds = (Date.now() - started) / 1000;
    const credentials: string[] = [];
    for (let i = 0; i < credentialCount; i += 1) {
      credentials.push((await createCredential(database, { siteHandle: 'demo', scope: 'core', label: `bench ${i}` })).token);
    }
    const storefront = (await createCredential(database, { siteHandle: 'demo', scope: 'extended', label: 'bench storefront' })).token;
    const handles = await soldHandles(database);
    const variantIds = (
      await execute(database, `select v.id from product_variants v where v.product_id in (select p.id ${SOLD}) order by v.id`)
    ).rows.map((r) => String(r.id));
    return {
      products,
      dir,
      url,
      credentials,
      storefront,
      allHandles: interleave(handles),
      variantIds: interleave(variantIds),
      seedSeconds,
    };
  } finally {
    closeDatabase(database);
  }
}

/** The product whose prices change, as last written, and the rest of the one-product file (per database). */
const priceChanges = new Map<string, PriceChange>();

/** `npm run catalog`'s heap cap (package.json): the command as merchants run it. */
const CATALOG_NODE_FLAGS = [
  /--max-old-space-size=\d+/.exec(
    (JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8')) as { scripts: { catalog: string } }).scripts.catalog,
  )![0],
];

/**
 * Raises the prices of one product in every market by one unit of the currency, as a
 * merchant does: a file with that one product, imported with `npm run catalog -- import`
 * (its own process, the shop running meanwhile). Whatever the import does to tell the shop's
 * caches what changed happens as it does for a merchant. Answers the product's handle.
 */
export async function changeOnePrice(fixture: Fixture): Promise<string> {
  const handle = fixture.allHandles[fixture.allHandles.length >> 2]!;
  const change = priceChanges.get(fixture.url) ?? (await exportedProduct(fixture, handle));
  change.product = {
    ...change.product,
    // Stock left out keeps the shop's counts (docs/catalog.md).
    variants: change.product.variants.map((variant) => ({
      ...variant,
      stock: undefined,
      prices: Object.fromEntries(
        Object.entries(variant.prices).map(([market, price]) => [
          market,
          { ...price, amount: plusOne(price.amount), ...(price.compareAt ? { compareAt: plusOne(price.compareAt) } : {}) },
        ]),
      ),
    })),
  };
  priceChanges.set(fixture.url, change);
  const file = join(fixture.dir, `price-change-${fixture.products}.json`);
  const doc: CatalogDocument = { ...change.head, products: [change.product], collections: [] };
  writeFileSync(file, JSON.stringify(doc, null, 2));
  const out = await runToCompletion(
    'catalog import',
    process.execPath,
    [
      ...CATALOG_NODE_FLAGS,
      '--conditions=react-server',
      '--import',
      'tsx',
      join(process.cwd(), 'scripts', 'catalog.ts'),
      'import',
      '--site',
      'demo',
      file,
    ],
    { ...process.env, DATABASE_URL: fixture.url, MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2' },
    120_000,
  );
  if (!/^Applied: /m.test(out)) throw new Error(`the price change was not applied:\n${out.slice(-2000)}`);
  return handle;
}

type PriceChange = { head: Omit<CatalogDocument, 'products' | 'collections'>; product: CatalogProduct };

/** The product as `npm run catalog -- export` writes it (only its part of the export is parsed). */
async function exportedProduct(fixture: Fixture, handle: string): Promise<PriceChange> {
  const database = openDatabase({ url: fixture.url });
  try {
    let markets: CatalogDocument['markets'] | undefined;
    let product: CatalogProduct | undefined;
    const marketsAt = '  "markets": ';
    const productAt = `    {\n      "handle": ${JSON.stringify(handle)},`;
    // The export writes its head's markets, then each product, as chunks of their own.
    await exportCatalogTo(database, 'demo', (chunk) => {
      const json = () => chunk.trim().replace(/,$/, '');
      if (chunk.startsWith(marketsAt)) markets = JSON.parse(json().slice(marketsAt.trim().length)) as CatalogDocument['markets'];
      else if (chunk.startsWith(productAt)) product = JSON.parse(json()) as CatalogProduct;
    });
    if (!markets || !product) throw new Error(`the export has no markets or no product ${handle}`);
    return { head: { format: CATALOG_FORMAT, version: CATALOG_FORMAT_VERSION, site: 'demo', markets }, product };
  } finally {
    closeDatabase(database);
  }
}

/** A decimal amount one unit of its currency higher, with as many decimals: "199.00" → "200.00", "1999" → "2000". */
function plusOne(amount: string): string {
  const [units, decimals] = amount.split('.');
  return decimals === undefined ? String(Number(units) + 1) : `${Number(units) + 1}.${decimals}`;
}

// Published and priced in the default market: what the API answers 200 for there.
const SOLD = `from products p join sites s on s.id = p.site_id
  where s.handle = 'demo' and p.status = 'published' and exists (select 1 from product_variants v
    join variant_prices vp on vp.variant_id = v.id and vp.market_id = s.default_market_id where v.product_id = p.id)`;

/** The demo Site's products the API answers 200 for in its default market, in handle order. */
export async function soldHandles(database: Database): Promise<string[]> {
  return (await execute(database, `select p.handle ${SOLD} order by p.handle`)).rows.map((r) => String(r.handle));
}
