import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { expect, test } from '../support/request';
import type { Connection } from '@/db';
import { Product } from '@/lib/contract/catalog';
import { auth, creds, V1 } from '../support/api';
import { copyDatabase, type Instance, killInstance, mainDatabaseUrl, rawClient, startInstance } from '../support/instances';

// Product answers kept in the database (lib/platform/cache/stored-answers.ts): what one
// instance built, another serves without building it, until what the answer shows changes.
// Two `next start` instances of one deployment (the same public origin) on a copy of the e2e
// database.
test.describe.configure({ mode: 'serial', timeout: 180_000 });

const ORIGIN = 'https://shop.example.test';
const METRICS_TOKEN = 'metrics-token-for-stored-answers';
const scratch = mkdtempSync(join(tmpdir(), 'sd-stored-answers-'));
let a: Instance;
let b: Instance;
let database: Connection;

test.beforeAll(async () => {
  const url = await copyDatabase(mainDatabaseUrl(), join(scratch, 'site.db'));
  const env = { STOREFRONT_ORIGIN: ORIGIN, METRICS_TOKEN, JOBS: 'cron' };
  [a, b] = await Promise.all([startInstance(url, env), startInstance(url, env)]);
  database = rawClient(url);
});
test.afterAll(async () => {
  database?.close();
  await Promise.all([a, b].filter(Boolean).map(killInstance));
  rmSync(scratch, { recursive: true, force: true });
});

async function product(request: APIRequestContext, instance: Instance, handle: string) {
  const res = await request.get(`${instance.baseURL}${V1}/commerce/products/${handle}`, { headers: auth(creds().core) });
  const text = await res.text();
  expect(res.status(), text).toBe(200);
  return { text, etag: res.headers().etag!, body: Product.parse(JSON.parse(text)) };
}

async function storedBody(handle: string): Promise<string | null> {
  // This deployment's answer: the copied database also holds the shared e2e server's, under its own origin.
  const found = await database.execute({ sql: 'SELECT body FROM stored_answers WHERE handle = ? AND origin = ?', args: [handle, ORIGIN] });
  return found.rows[0] ? String(found.rows[0].body) : null;
}

/** The instance's count of answers served from the database instead of built (GET /metrics). */
async function storedHits(request: APIRequestContext, instance: Instance): Promise<number> {
  const res = await request.get(`${instance.baseURL}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(res.status()).toBe(200);
  const line = (await res.text()).split('\n').find((l) => l.startsWith('site_cache_lookups_total{cache="stored-answers",result="hit"}'));
  return line ? Number(line.split(' ').pop()) : 0;
}

test('an answer one instance built is served by another without building it, until its product changes', async ({ request }) => {
  const built = await product(request, a, 'hygge-wool-rug');
  // written after the answer went out, in a batch
  await expect.poll(() => storedBody('hygge-wool-rug')).toBe(built.text);
  expect(built.text).toContain(`"url":"${ORIGIN}/`);

  // Marked in the database: only an answer served from there can carry the mark.
  const marked = built.text.replace('"handle":', '"handle" :');
  await database.execute({
    sql: 'UPDATE stored_answers SET body = ? WHERE handle = ? AND origin = ?',
    args: [marked, 'hygge-wool-rug', ORIGIN],
  });
  const hitsBefore = await storedHits(request, b);
  const served = await product(request, b, 'hygge-wool-rug');
  expect(served.text).toBe(marked);
  expect(served.etag).toBe(built.etag);
  expect(await storedHits(request, b)).toBe(hitsBefore + 1);

  // A price change: neither instance serves the kept answer any more (nor the one in its memory).
  const variant = built.body.variants[0]!;
  await database.execute({ sql: "UPDATE variant_prices SET amount = 43210 WHERE variant_id = ? AND market_id = 'se'", args: [variant.id] });
  for (const instance of [b, a]) {
    const after = await product(request, instance, 'hygge-wool-rug');
    expect(after.body.variants[0]!.price).toEqual({ amount: '432.10', currency: 'SEK' });
    expect(after.text).not.toContain('"handle" :');
    expect(after.etag).not.toBe(built.etag);
  }
  // and the new answer takes the old one's place for the next instance
  await expect.poll(async () => (await storedBody('hygge-wool-rug'))?.includes('"amount":"432.10"') ?? false).toBe(true);
});
