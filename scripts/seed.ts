// npm run db:seed [-- --products N]: migrates, wipes and rebuilds the deterministic demo.
import { db } from '@/lib/db';
import { env } from '@/lib/env';
import { migrateDatabase } from '@/db/migrate';
import { seedDatabase } from '@/db/seed';

function parseProducts(argv: string[]): number {
  const i = argv.findIndex((a) => a === '--products' || a.startsWith('--products='));
  if (i < 0) return 0;
  const arg = argv[i] ?? '';
  const raw = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[i + 1];
  const n = Number(raw);
  if (!raw || !Number.isInteger(n) || n < 0 || n > 1_000_000) {
    console.error('usage: seed [--products N]   (N: extra generated products, 0–1000000)');
    process.exit(2);
  }
  return n;
}

const products = parseProducts(process.argv.slice(2));
const started = performance.now();
const database = db();
await migrateDatabase(database, env().DATABASE_URL);
const summary = await seedDatabase(database, { products });
const seconds = ((performance.now() - started) / 1000).toFixed(2);
const sites = summary.sites
  .map((s) => `${s.handle} (${s.id}): ${s.publishedProducts}/${s.products} products published, ${s.variants} variants, ${s.collections} collections`)
  .join('; ');
console.log(`Seeded in ${seconds}s: ${sites}; ${summary.addresses} addresses, ${summary.pickupPoints} pickup points, ${summary.rows} rows.`);
database.$client.close();
