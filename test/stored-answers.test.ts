import { rmSync } from 'node:fs';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { closeDatabase, openDatabase, rows, run, type Database } from '@/db';
import { variantPrices } from '@/db/schema';
import { createCredential } from '@/lib/platform/auth/credentials';
import { freshDatabase } from './support/database';

// Product answers kept in the database for every instance (lib/platform/cache/stored-answers.ts),
// through the product route as a server runs it. "Another instance" is this process with its
// answer cache in memory emptied; changes are made from a second connection, as another
// process would make them.
vi.mock('server-only', () => ({}));

const ORIGIN = 'https://shop.example.com';
let dir: string;
let database: Database;
let other: Database;
let token: string;

beforeAll(async () => {
  let url: string;
  ({ database, dir, url } = await freshDatabase());
  other = openDatabase({ url });
  token = (await createCredential(database, { siteHandle: 'demo', scope: 'core' })).token;
  vi.stubEnv('DATABASE_URL', url);
  vi.stubEnv('STOREFRONT_ORIGIN', ORIGIN);
});
afterAll(async () => {
  const { db } = await import('@/lib/db');
  closeDatabase(db());
  closeDatabase(database);
  closeDatabase(other);
  rmSync(dir, { recursive: true, force: true });
  vi.unstubAllEnvs();
});

async function product(handle: string): Promise<{ status: number; text: string; etag: string | null }> {
  const { GET } = await import('@/app/site/v1/commerce/products/[handle]/route');
  const res = await GET(
    new Request(`http://127.0.0.1:3000/site/v1/commerce/products/${handle}`, { headers: { Authorization: `Bearer ${token}` } }),
    { params: Promise.resolve({ handle }) },
  );
  return { status: res.status, text: await res.text(), etag: res.headers.get('etag') };
}

/** This process as a new instance finds the shop: nothing in memory. */
async function newInstance(): Promise<void> {
  const { answerCache } = await import('@/lib/platform/cache/memo');
  answerCache.clear();
}

/** Writes what the last requests queued (it is written in batches, after the answers). */
async function stored(): Promise<Array<{ handle: string; valid_at: number; build: string; body: string; etag: string }>> {
  const { flushStoredAnswers } = await import('@/lib/platform/cache/stored-answers');
  const { db } = await import('@/lib/db');
  await flushStoredAnswers(db());
  return rows(database, 'SELECT handle, valid_at, build, body, etag FROM stored_answers ORDER BY handle');
}

async function changePrice(handle: string, by: number): Promise<void> {
  const [variant] = await rows<{ id: string }>(
    other,
    `SELECT v.id FROM product_variants v JOIN products p ON p.id = v.product_id WHERE p.handle = ? ORDER BY v.position LIMIT 1`,
    [handle],
  );
  const [price] = await other
    .select()
    .from(variantPrices)
    .where(and(eq(variantPrices.variantId, variant!.id), eq(variantPrices.marketId, 'se')));
  await other
    .update(variantPrices)
    .set({ amount: price!.amount + by })
    .where(and(eq(variantPrices.variantId, variant!.id), eq(variantPrices.marketId, 'se')));
}

/** The stored answer's text with a mark only a stored answer can carry: seen, it was served from the database. */
async function markStored(handle: string): Promise<string> {
  const [row] = await rows<{ body: string }>(database, 'SELECT body FROM stored_answers WHERE handle = ?', [handle]);
  const marked = row!.body.replace('"handle":', '"handle" :');
  await run(database, 'UPDATE stored_answers SET body = ? WHERE handle = ?', [marked, handle]);
  return marked;
}

describe('product answers kept in the database', () => {
  it('are written once built, with the version they were read at, and served by an instance that never built them', async () => {
    const first = await product('fjord-ceramic-mug');
    expect(first.status).toBe(200);
    const [row] = await stored();
    expect(row).toMatchObject({ handle: 'fjord-ceramic-mug', body: first.text, etag: first.etag });
    const marked = await markStored('fjord-ceramic-mug');

    await newInstance();
    const again = await product('fjord-ceramic-mug');
    expect(again).toEqual({ status: 200, text: marked, etag: first.etag });
    // and kept in memory from then on
    await run(database, 'DELETE FROM stored_answers');
    expect((await product('fjord-ceramic-mug')).text).toBe(marked);
  });

  it('stay served across a change to another product, and are built again after a change to their own', async () => {
    await newInstance();
    await product('fjord-ceramic-mug');
    await product('linen-tote-bag');
    await stored();
    const mug = await markStored('fjord-ceramic-mug');
    const tote = await markStored('linen-tote-bag');

    await changePrice('linen-tote-bag', 100);
    await newInstance();
    expect((await product('fjord-ceramic-mug')).text).toBe(mug);
    const rebuilt = await product('linen-tote-bag');
    expect(rebuilt.text).not.toBe(tote);
    expect(rebuilt.text).not.toContain('"handle" :');
    // the new answer replaces the old one, at the version it was read at
    const after = (await stored()).find((r) => r.handle === 'linen-tote-bag')!;
    expect(after.body).toBe(rebuilt.text);
    const [site] = await rows<{ catalog_version: number }>(database, "SELECT catalog_version FROM sites WHERE handle = 'demo'");
    expect(after.valid_at).toBe(site!.catalog_version);
  });

  it('answer only for the build that made them, and each build keeps its own at an address', async () => {
    await newInstance();
    await product('fjord-ceramic-mug');
    await stored();
    const marked = await markStored('fjord-ceramic-mug');
    await run(database, "UPDATE stored_answers SET build = 'another-build' WHERE handle = 'fjord-ceramic-mug'");
    await newInstance();
    const built = await product('fjord-ceramic-mug');
    expect(built.text).not.toBe(marked);
    // During a deploy both builds serve the address: neither overwrites the other's answer.
    const rowsOfMug = (await stored()).filter((r) => r.handle === 'fjord-ceramic-mug');
    expect(rowsOfMug.map((r) => [r.build === 'another-build', r.body]).sort()).toEqual([
      [false, built.text],
      [true, marked],
    ]);
  });

  it('are kept for the configured origin only: a made-up Host header fills nothing', async () => {
    const { keptInDatabase } = await import('@/lib/platform/cache/stored-answers');
    expect(keptInDatabase(ORIGIN)).toBe(true);
    expect(keptInDatabase('https://attacker.example')).toBe(false);
    expect(keptInDatabase('http://127.0.0.1:3000')).toBe(false);
  });

  it("are swept once they can never be served: their product changed, or another build's, past its grace", async () => {
    await run(database, 'DELETE FROM stored_answers');
    await newInstance();
    await product('fjord-ceramic-mug');
    await product('linen-tote-bag');
    await product('hygge-wool-rug');
    expect((await stored()).map((r) => r.handle)).toEqual(['fjord-ceramic-mug', 'hygge-wool-rug', 'linen-tote-bag']);
    const { purgeDeadAnswers } = await import('@/lib/platform/cache/stored-answers');
    // Step by step through the table, as the sweep job does: each step looks at `chunk` rows.
    const purgeAll = (chunk?: number) => purgeDeadAnswers(database, Date.now(), 60_000, { chunk });
    expect(await purgeAll()).toEqual({ deleted: 0, steps: 1 });

    await changePrice('fjord-ceramic-mug', 100);
    await run(database, "UPDATE stored_answers SET build = 'old-build', stored_at = ? WHERE handle = 'linen-tote-bag'", [
      Date.now() - 120_000,
    ]);
    await run(database, "UPDATE stored_answers SET build = 'old-build' WHERE handle = 'hygge-wool-rug'");
    // a walk stopped after its first step (the job's deadline) leaves the rest for its next pass
    let allowed = 1;
    const first = await purgeDeadAnswers(database, Date.now(), 60_000, { chunk: 1, going: () => allowed-- > 0 });
    expect(first.steps).toBe(1);
    expect((await stored()).length).toBe(3 - first.deleted);
    expect((await purgeAll(1)).deleted).toBe(2 - first.deleted);
    // the previous build's recent answer stays for its instances still serving
    expect((await stored()).map((r) => r.handle)).toEqual(['hygge-wool-rug']);
  });
});
