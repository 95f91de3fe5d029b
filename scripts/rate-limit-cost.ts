// Measures what the rate limit adds to every request: the counting upsert on a fresh file
// database, as the server runs it (lib/db's client) and, for comparison, on a connection
// with synchronous=NORMAL (no fsync per commit in WAL mode).
// Run: npx tsx --conditions=react-server scripts/rate-limit-cost.ts [calls]
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execute, openConnection } from '@/db';

const calls = Number(process.argv[2] ?? 5000);
const url = 'file:' + join(mkdtempSync(join(tmpdir(), 'sd-cost-')), 'site.db');
process.env.DATABASE_URL = url;

const { openDatabase } = await import('@/db/client');
const { migrateDatabase } = await import('@/db/migrate');
const { consumeRateLimit } = await import('@/lib/platform/rate-limit/store');
const { applyRateLimit } = await import('@/lib/platform/rate-limit/http');

const database = openDatabase({ url });
await migrateDatabase(database);
const policy = { name: 'reads' as const, limit: 1e12, windowSeconds: 60 };

async function measure(label: string, run: (i: number) => Promise<unknown>) {
  for (let i = 0; i < 200; i++) await run(i);
  const started = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) await run(i);
  const perCall = Number(process.hrtime.bigint() - started) / 1000 / calls;
  console.log(`${label.padEnd(58)} ${perCall.toFixed(1).padStart(8)} µs/call`);
}

console.log(`${calls} calls each, ${url}`);
await measure('SELECT 1 (floor: one round trip to libSQL)', () => execute(database, 'SELECT 1'));
await measure('applyRateLimit, read (as the server runs it)', (i) =>
  applyRateLimit({ credentialId: `cred_${i % 20}`, kind: 'read', buyerIp: null }),
);
await measure('applyRateLimit, write per shopper (+ HMAC of the address)', (i) =>
  applyRateLimit({ credentialId: 'cred_w', kind: 'write', buyerIp: `203.0.113.${i % 250}` }),
);
const { drizzle } = await import('drizzle-orm/libsql');
const relaxed = openConnection(url);
await relaxed.execute('PRAGMA synchronous = NORMAL');
const relaxedDb = drizzle({ client: relaxed as never, casing: 'snake_case' }) as unknown as typeof database;
await measure('same upsert, connection with synchronous=NORMAL', (i) =>
  consumeRateLimit(relaxedDb, { bucket: `normal:${i % 20}:r`, policy, now: Date.now() }),
);
console.log("synchronous of the server's connection:", (await execute(database, 'PRAGMA synchronous')).rows[0]);
