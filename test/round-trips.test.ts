import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDatabase, openDatabase, rows, run, type Database } from '@/db';
import { migrateDatabase } from '@/db/migrate';
import { seedDatabase } from '@/db/seed';
import { authenticateCredential, createCredential } from '@/lib/platform/auth/credentials';
import { getPublishedProduct } from '@/lib/commerce/catalog';
import { chooseMarket } from '@/lib/commerce/markets';
import { subscribeToNewsletter } from '@/lib/commerce/signups';
import { startLibsqlTestServer, type LibsqlTestServer } from '../e2e/support/libsql-server';

// Issue #43's round-trip budgets, held by the domain's own calls against the libSQL test
// server (e2e/support/libsql-server.ts), which records every request: what an API request
// costs a database over a network, besides what a route adds (its rate-limit leases are
// claimed a batch at a time, and a kept answer costs nothing). The remote bench
// (scripts/bench/remote.ts) measures the same through `next start`.

let dir: string;
let server: LibsqlTestServer;
let database: Database;
let token: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sd-round-trips-'));
  server = await startLibsqlTestServer({ path: join(dir, 'site.db') });
  database = openDatabase({ url: server.url });
  await migrateDatabase(database, server.url);
  await seedDatabase(database);
  ({ token } = await createCredential(database, { siteHandle: 'demo', scope: 'core' }));
}, 120_000);

afterAll(async () => {
  closeDatabase(database);
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The statements of each request `work` sent, one entry a request. */
async function requestsOf(work: () => Promise<unknown>): Promise<string[][]> {
  const recording = server.record();
  try {
    await work();
  } finally {
    recording.stop();
  }
  return recording.requests;
}

async function signedIn() {
  const context = await authenticateCredential(database, token);
  if (!context) throw new Error('the credential did not authenticate');
  return context;
}

describe('round trips to a database over a network', () => {
  it('an API read that misses its cache: the credential, then the product with everything it shows in one request (≤ 2)', async () => {
    const { site } = await signedIn();
    const choice = await chooseMarket(database, site, {}); // the markets are kept per catalog version
    const [handle] = (await rows<{ handle: string }>(database, "SELECT handle FROM products WHERE status = 'published' LIMIT 1")).map(
      (r) => r.handle,
    );
    let title = '';
    const requests = await requestsOf(async () => {
      const { site: current } = await signedIn();
      title = (await getPublishedProduct(database, current, handle!, choice)).title;
    });
    expect(title).toBeTruthy();
    expect(requests).toHaveLength(2);
    // The product and everything it shows in one statement (lib/commerce/catalog/product-by-handle.ts):
    // one snapshot without a transaction, not an interactive transaction of a request per step.
    expect(requests[1]).toHaveLength(1);
    expect(requests[1]![0]).toMatch(/^select/i);
  });

  it('a newsletter signup: the credential, then its consent, subscription, mail budget and message in one write (≤ 2)', async () => {
    const { site, credentialId } = await signedIn();
    await chooseMarket(database, site, {});
    const email = `round.trip.${Date.now()}@example.se`;
    const consent = { granted: true as const, text: 'Yes, send me the newsletter.', version: '2026-01' };
    let outcome: unknown;
    const requests = await requestsOf(async () => {
      const context = await signedIn();
      outcome = await subscribeToNewsletter(database, context, { email, consent }, Date.now(), { shopper: '198.51.100.9' });
    });
    expect(outcome).toMatchObject({ created: true });
    expect(requests).toHaveLength(2);
    expect(credentialId).toBeTruthy();
    const [queued] = await rows<{ n: number }>(
      database,
      "SELECT count(*) AS n FROM outbox_messages WHERE topic = 'newsletter_subscription.confirmation_requested' AND json_extract(payload, '$.email') = ?",
      [email],
    );
    expect(Number(queued!.n)).toBe(1);
  });

  it('the Site’s markets, read again after a catalog change: four reads, one request', async () => {
    const before = (await signedIn()).site.catalogVersion;
    await run(database, "UPDATE sites SET name = name || ' ' WHERE handle = 'demo'");
    const { site } = await signedIn();
    expect(site.catalogVersion).toBeGreaterThan(before);
    let markets = 0;
    const requests = await requestsOf(async () => (markets = (await chooseMarket(database, site, {})).markets.length));
    expect(markets).toBeGreaterThan(1);
    expect(requests).toHaveLength(1);
  });

  it('a signup over its mail budget: still one write, and nothing of it stays', async () => {
    const context = await signedIn();
    const email = `held.${Date.now()}@example.se`;
    const consent = { granted: true as const, text: 'Yes, send me the newsletter.', version: '2026-01' };
    const budget = { perMailbox: 0 };
    let outcome: unknown;
    const requests = await requestsOf(async () => {
      outcome = await subscribeToNewsletter(database, context, { email, consent }, Date.now(), budget);
    });
    expect(outcome).toEqual({ created: false, held: true });
    expect(requests).toHaveLength(1);
    const left = await rows<{ n: number }>(
      database,
      'SELECT (SELECT count(*) FROM consents WHERE email = ?) + (SELECT count(*) FROM newsletter_subscriptions WHERE email = ?) AS n',
      [email, email],
    );
    expect(Number(left[0]!.n)).toBe(0);
  });
});
