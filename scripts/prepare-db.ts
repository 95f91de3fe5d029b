// Runs before the server starts: migrate, seed an EMPTY database (never wipes data), and
// make sure the reference storefront has a live credential in .env.local (server-only).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { db } from '@/lib/db';
import { env } from '@/lib/env';
import { migrateDatabase } from '@/db/migrate';
import { isDatabaseEmpty, seedDatabase } from '@/db/seed';
import { createCredential, isLiveCredential } from '@/lib/commerce/credentials';

const ENV_FILE = '.env.local';
const KEY = 'SITE_API_CREDENTIAL';

const database = db();
const config = env();
await migrateDatabase(database, config.DATABASE_URL);
if (await isDatabaseEmpty(database)) {
  const summary = await seedDatabase(database, {});
  console.log('seeded the demo shop', JSON.stringify(summary));
}

if (config.SITE_API_CREDENTIAL) {
  if (!(await isLiveCredential(database, config.SITE_API_CREDENTIAL))) {
    console.warn(`${KEY} is set but is not a live credential of this database; the storefront will get 401s.`);
  }
} else {
  const lines = existsSync(ENV_FILE) ? readFileSync(ENV_FILE, 'utf8').split('\n') : [];
  const current = lines.find((l) => l.startsWith(`${KEY}=`))?.slice(KEY.length + 1).trim();
  if (!current || !(await isLiveCredential(database, current))) {
    const made = await createCredential(database, { siteHandle: 'demo', scope: 'extended', label: 'reference storefront' });
    const kept = lines.filter((l) => !l.startsWith(`${KEY}=`) && l.trim() !== '');
    writeFileSync(ENV_FILE, [...kept, `${KEY}=${made.token}`, ''].join('\n'), { mode: 0o600 });
    console.log(`made a storefront credential (${made.id}) and stored it in ${ENV_FILE}`);
  }
}
