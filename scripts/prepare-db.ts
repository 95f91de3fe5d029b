// Runs before the server starts: migrate, seed an EMPTY database (never wipes data), and
// make sure the reference storefront has a live credential in .env.local (server-only).
import { db } from '@/lib/db';
import { env } from '@/lib/env';
import { migrateDatabase } from '@/db/migrate';
import { isDatabaseEmpty, seedDatabase } from '@/db/seed';
import { ensureStorefrontCredential } from './storefront-credential';

const database = db();
const config = env();
await migrateDatabase(database);
if (await isDatabaseEmpty(database)) {
  const summary = await seedDatabase(database, {});
  console.log('seeded the demo shop', JSON.stringify(summary));
}
await ensureStorefrontCredential(database, config.SITE_API_CREDENTIAL);
