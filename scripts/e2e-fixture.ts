// Migrates and seeds the e2e database and writes fresh credentials to a JSON file.
import { writeFileSync } from 'node:fs';
import { db } from '@/lib/db';
import { migrateDatabase } from '@/db/migrate';
import { seedDatabase } from '@/db/seed';
import { createCredential, revokeCredential } from '@/lib/platform/auth/credentials';

const [out] = process.argv.slice(2);
if (!out) throw new Error('usage: e2e-fixture <credentials.json>');
const database = db();
await migrateDatabase(database);
await seedDatabase(database);
const make = async (siteHandle: string, scope: 'core' | 'extended') => (await createCredential(database, { siteHandle, scope })).token;
const revoked = await make('demo', 'extended');
await revokeCredential(database, revoked);
const credentials = {
  core: await make('demo', 'core'),
  extended: await make('demo', 'extended'),
  outletCore: await make('outlet', 'core'),
  outletExtended: await make('outlet', 'extended'),
  storefront: await make('demo', 'extended'),
  revoked,
};
writeFileSync(out, JSON.stringify(credentials, null, 2), { mode: 0o600 });
console.log(`e2e fixture ready: ${out}`);
