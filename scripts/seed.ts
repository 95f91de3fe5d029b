// npm run db:seed [-- --products N] [--force]: migrates and builds the deterministic demo.
// A database that already has data is refused unless --force; even then its credentials
// are kept, so a running storefront keeps working.
import { parseArgs } from 'node:util';
import { db } from '@/lib/db';
import { env } from '@/lib/env';
import { migrateDatabase } from '@/db/migrate';
import { isDatabaseEmpty, seedDatabase } from '@/db/seed';
import { ensureStorefrontCredential } from './storefront-credential';
import { closeDatabase } from '@/db';

const USAGE = 'usage: seed [--products N] [--force]   (N: extra generated products, 0–1000000)';

function parseFlags(argv: string[]): { products: number; force: boolean } {
  try {
    const { values } = parseArgs({ args: argv, options: { products: { type: 'string' }, force: { type: 'boolean', default: false } } });
    const raw = values.products ?? '0';
    const n = Number(raw);
    if (!/^\d+$/.test(raw) || n > 1_000_000) throw new Error(`bad --products ${raw}`);
    return { products: n, force: values.force ?? false };
  } catch {
    console.error(USAGE);
    process.exit(2);
  }
}

const { products, force } = parseFlags(process.argv.slice(2));
const started = performance.now();
const database = db();
const config = env();
await migrateDatabase(database);
const empty = await isDatabaseEmpty(database);
if (!empty && !force) {
  console.error(
    'This database already has a shop in it: seeding would replace every product, order session, signup and ' +
      'analytics event with the demo.\nNothing was changed. To replace it anyway, run: npm run db:seed -- --force ' +
      '(credentials are kept). To change products, use: npm run catalog -- import …',
  );
  closeDatabase(database);
  process.exit(1);
}
const summary = await seedDatabase(database, { products, keepCredentials: !empty });
await ensureStorefrontCredential(database, config.SITE_API_CREDENTIAL);
const seconds = ((performance.now() - started) / 1000).toFixed(2);
const sites = summary.sites
  .map(
    (s) =>
      `${s.handle} (${s.id}): ${s.publishedProducts}/${s.products} products published, ${s.variants} variants, ${s.collections} collections`,
  )
  .join('; ');
console.log(
  `Seeded in ${seconds}s: ${sites}; ${summary.addresses} addresses, ${summary.pickupPoints} pickup points, ${summary.rows} rows.`,
);
closeDatabase(database);
