import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { closeDatabase, openDatabase, rows, run, type Database } from '@/db';
import { migrateDatabase } from '@/db/migrate';
import { seedDatabase } from '@/db/seed';
import { authenticateCredential, createCredential } from '@/lib/platform/auth/credentials';
import { getPublishedProduct } from '@/lib/commerce/catalog';
import { chooseMarket } from '@/lib/commerce/markets';
import { subscribeToNewsletter } from '@/lib/commerce/signups';
import { RateLimitLeases, isRateLimitSpent, windowStartOf, type RateLimitPolicy } from '@/lib/platform/rate-limit/store';
import { PAGE_BUILD, storePage } from '@/lib/storefront/stored-pages';
import { startLibsqlTestServer, type LibsqlTestServer } from '../e2e/support/libsql-server';

// Issue #43's round-trip budgets, held by the domain's own calls against the libSQL test
// server (e2e/support/libsql-server.ts), which records every request: what an API request
// costs a database over a network, besides what a route adds (its rate-limit leases are
// claimed a batch at a time, a shopper's write claim rides in the write's own batch, and a
// kept answer costs nothing), and what the proxy's kept product page costs. The remote bench
// (scripts/bench/remote.ts) measures the same through `next start`.

// lib/storefront's page key is server-only; this test is the server.
vi.mock('server-only', () => ({}));

let dir: string;
let server: LibsqlTestServer;
let database: Database;
let token: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sd-round-trips-'));
  server = await startLibsqlTestServer({ path: join(dir, 'site.db') });
  database = openDatabase({ url: server.url });
  await migrateDatabase(database);
  await seedDatabase(database);
  ({ token } = await createCredential(database, { siteHandle: 'demo', scope: 'core' }));
  // The proxy's page key reads the app's database (lib/db) with the storefront's credential;
  // lib/env reads the environment once, on first use, so it is set before anything asks.
  Object.assign(process.env, { DATABASE_URL: server.url, SITE_API_CREDENTIAL: token, PORT: '3000', PAGE_STORE: 'on' });
  delete process.env.SITE_API_BASE_URL;
  delete process.env.STOREFRONT_ORIGIN;
}, 120_000);

afterAll(async () => {
  closeDatabase(database);
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The statements of each request `work` sent, one entry a request. */
const requestsOf = (work: () => Promise<unknown>) => server.requestsDuring(work);

/** Whether every statement of a request, transaction control aside, matches `pattern`. */
const onlyDoes = (pattern: RegExp) => (request: string[]) =>
  request.every((statement) => /^(begin|commit|rollback)\b/i.test(statement) || pattern.test(statement));
/** A request that only keeps the rate limiter's books: a lease claimed again when its window turns. */
const keepsBooks = onlyDoes(/rate_limit_/i);
/** A request that only writes built answers down, a batch at a time after they went out (stored-answers.ts). */
const storesAnswers = onlyDoes(/^insert into stored_answers/i);

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

  it('a product read through the route: an answer no instance built yet and one another built alike cost the credential and one request', async () => {
    const { GET } = await import('@/app/site/v1/commerce/products/[handle]/route');
    const { answerCache } = await import('@/lib/platform/cache/memo');
    const { flushStoredAnswers } = await import('@/lib/platform/cache/stored-answers');
    const { db } = await import('@/lib/db');
    const handles = (await rows<{ handle: string }>(database, "SELECT handle FROM products WHERE status = 'published' LIMIT 2")).map(
      (r) => r.handle,
    );
    const read = async (handle: string) => {
      const res = await GET(
        new Request(`http://127.0.0.1:3000/site/v1/commerce/products/${handle}`, { headers: { Authorization: `Bearer ${token}` } }),
        { params: Promise.resolve({ handle }) },
      );
      expect(res.status).toBe(200);
      return res.text();
    };
    // One request in 200 also sweeps old rate-limit windows, off its path: not in these two.
    const random = vi.spyOn(Math, 'random').mockReturnValue(0.5);
    const { env } = await import('@/lib/env');
    const windowNow = () => windowStartOf(Date.now(), env().RATE_LIMIT_WINDOW_SECONDS);
    let built = '';
    let served = '';
    let marked = '';
    let window = 0;
    let buildRequests: string[][];
    let storedRequests: string[][];
    try {
      window = windowNow();
      await read(handles[1]!); // the markets, and the read budget's lease, are the process's from here on
      await flushStoredAnswers(db()); // its answer's write, which would otherwise go out during the next read
      buildRequests = await requestsOf(async () => (built = await read(handles[0]!)));
      await flushStoredAnswers(db());
      // marked: only the stored answer can carry the mark
      marked = built.replace('"handle":', '"handle" :');
      await run(database, 'UPDATE stored_answers SET body = ? WHERE handle = ?', [marked, handles[0]!]);
      answerCache.clear(); // another instance: nothing in memory
      storedRequests = await requestsOf(async () => (served = await read(handles[0]!)));
    } finally {
      random.mockRestore();
    }
    expect(served).toBe(marked);
    // A window that turned during the reads (once a minute) costs one of them a new lease;
    // on a busy host the built answer's write, due 200 ms after it, may go out before the
    // read is over. Neither is the read's own.
    const turned = windowNow() !== window;
    for (const all of [buildRequests, storedRequests]) {
      expect(all.filter(keepsBooks).length).toBeLessThanOrEqual(turned ? 1 : 0);
      expect(all.filter(storesAnswers).length).toBeLessThanOrEqual(all === buildRequests ? 1 : 0);
      const requests = all.filter((request) => !keepsBooks(request) && !storesAnswers(request));
      expect(requests).toHaveLength(2);
      // the stored answer's read and the product's own, together (one read-only batch)
      const reads = requests[1]!.filter((statement) => !/^(begin|commit|rollback)\b/i.test(statement));
      expect(reads).toHaveLength(2);
      expect(reads[0]).toMatch(/from stored_answers/i);
      expect(reads[1]).toMatch(/^select "id", "handle"/i);
    }
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
  it('a signup naming a shopper: the shopper’s write budget claimed in the signup’s own write (≤ 2)', async () => {
    const context = await signedIn();
    const leases = new RateLimitLeases();
    const policy: RateLimitPolicy = { name: 'shopper-writes', limit: 300, windowSeconds: 60 };
    const claim = { bucket: `round-trips:shopper:${Date.now()}`, policy, now: Date.now() };
    const consent = { granted: true as const, text: 'Yes, send me the newsletter.', version: '2026-01' };
    const email = `rides.${Date.now()}@example.se`;
    const riders = leases.ride(claim);
    let outcome: unknown;
    const requests = await requestsOf(async () => {
      const current = await signedIn();
      outcome = await subscribeToNewsletter(database, current, { email, consent }, Date.now(), { shopper: '198.51.100.10' }, riders);
    });
    expect(outcome).toMatchObject({ created: true });
    expect(requests).toHaveLength(2);
    expect(requests[1]!.some((statement) => /rate_limit_checks/.test(statement))).toBe(true);
    expect(riders.state()).toMatchObject({ allowed: true, remaining: 299 });
    expect(context.credentialId).toBeTruthy();
    const [counted] = await rows<{ count: number }>(database, 'SELECT count FROM rate_limit_counters WHERE bucket = ?', [claim.bucket]);
    expect(Number(counted!.count)).toBe(1);
  });

  it('a shopper’s write budget, claimed in writes on two instances: past it the write fails whole, in one request', async () => {
    const context = await signedIn();
    const [first, second] = [new RateLimitLeases(), new RateLimitLeases()];
    const policy: RateLimitPolicy = { name: 'shopper-writes', limit: 2, windowSeconds: 3600 };
    const bucket = `round-trips:spent:${Date.now()}`;
    const consent = { granted: true as const, text: 'Yes, send me the newsletter.', version: '2026-01' };
    const signup = (instance: RateLimitLeases, email: string) => {
      const riders = instance.ride({ bucket, policy, now: Date.now() });
      return { riders, done: subscribeToNewsletter(database, context, { email, consent }, Date.now(), {}, riders) };
    };
    const stamp = Date.now();
    const a = signup(first, `a.${stamp}@example.se`);
    const b = signup(second, `b.${stamp}@example.se`);
    await Promise.all([a.done, b.done]);
    expect([a.riders.state()?.allowed, b.riders.state()?.allowed]).toEqual([true, true]);

    const refused = `c.${stamp}@example.se`;
    const c = signup(first, refused);
    let failure: unknown;
    const requests = await requestsOf(() => c.done.catch((error: unknown) => (failure = error)));
    expect(requests).toHaveLength(1);
    expect(isRateLimitSpent(failure)).toBe(true);
    expect(c.riders.refusal(failure)).toMatchObject({ allowed: false, remaining: 0 });
    // This instance now knows the window is spent: the next request is refused without asking.
    expect(first.takeNow({ bucket, policy, now: Date.now() })).toMatchObject({ allowed: false });
    const left = await rows<{ n: number }>(
      database,
      `SELECT (SELECT count(*) FROM consents WHERE email = ?) + (SELECT count(*) FROM newsletter_subscriptions WHERE email = ?)
        + (SELECT count(*) FROM outbox_messages WHERE json_extract(payload, '$.email') = ?) AS n`,
      [refused, refused, refused],
    );
    expect(Number(left[0]!.n)).toBe(0);
    const [counted] = await rows<{ count: number }>(database, 'SELECT count FROM rate_limit_counters WHERE bucket = ?', [bucket]);
    expect(Number(counted!.count)).toBe(2);
  });

  it('a kept product page: the storefront’s credential and the page in one request (≤ 1), and a change elsewhere shows at once', async () => {
    const { productPageKeyAndPage } = await import('@/lib/storefront/page-key');
    const { storedPageAnswer } = await import('@/lib/storefront/kept-pages');
    const request = { cookies: { get: () => undefined }, headers: new Headers({ host: '127.0.0.1:3000' }) };
    const [handle] = (await rows<{ handle: string }>(database, "SELECT handle FROM products WHERE status = 'published' LIMIT 1")).map(
      (r) => r.handle,
    );
    const first = await productPageKeyAndPage(request, handle!); // the markets, and where pages are
    const key = first!.key;
    await storePage(
      database,
      { siteId: key.siteId, origin: key.origin, market: key.market, locale: key.locale, handle: handle! },
      key.catalogVersion,
      '<p>kept</p>',
      "script-src 'self'",
    );
    expect(PAGE_BUILD).toBeTruthy();

    let answer = null as Response | null;
    const requests = await requestsOf(async () => {
      const found = await productPageKeyAndPage(request, handle!);
      answer = found && (await storedPageAnswer(found.key, handle!, {}, found.page));
    });
    expect(requests).toHaveLength(1);
    expect(answer!.headers.get('x-page-source')).toBe('stored');
    expect(await answer!.text()).toBe('<p>kept</p>');

    // Another instance changes the whole Site: the very next view reads the new version with
    // the page, and does not serve the page kept for the old one.
    await run(database, "UPDATE sites SET name = name || ' ' WHERE id = ?", [key.siteId]);
    const after = await productPageKeyAndPage(request, handle!);
    expect(after!.key.catalogVersion).toBeGreaterThan(key.catalogVersion);
    expect(await storedPageAnswer(after!.key, handle!, {}, after!.page)).toBeNull();
  });
});
