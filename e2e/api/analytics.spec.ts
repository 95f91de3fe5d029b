import { createHash, randomBytes } from 'node:crypto';
import type { Connection } from '@/db';
import { expect, test } from '../support/contract';
import { AnalyticsReceipt } from '@/lib/contract/analytics';
import { auth, creds, expectProblem, post, V1 } from '../support/api';
import { mainDatabaseUrl, rawClient } from '../support/instances';

const PATH = '/analytics/events';

/** The e2e server's database, on a connection that refuses writes. */
let database: Connection | undefined;
async function readOnlyDatabase(): Promise<Connection> {
  if (!database) {
    database = rawClient(mainDatabaseUrl());
    await database.execute('PRAGMA query_only = ON');
  }
  return database;
}
// With fullyParallel, a worker may run this file's hooks more than once: reopen after a close.
test.afterAll(() => {
  database?.close();
  database = undefined;
});

async function storedFor(anonymousId: string) {
  const db = await readOnlyDatabase();
  return (await db.execute({ sql: 'SELECT * FROM analytics_events WHERE anonymous_id = ? ORDER BY id', args: [anonymousId] })).rows;
}

const anon = () => `e2e_${randomBytes(9).toString('base64url')}`;
const recent = (secondsAgo = 30) => new Date(Date.now() - secondsAgo * 1000).toISOString();

test.describe(`POST ${PATH}`, () => {
  test('stores a batch and answers 202 with the count; rows carry no IP, user agent or credential', async ({ request }) => {
    const anonymousId = anon();
    const token = creds().extended;
    const res = await post(
      request,
      PATH,
      {
        events: [
          { type: 'page_view', occurredAt: recent(), anonymousId, path: '/products?page=2' },
          {
            type: 'product_view',
            occurredAt: recent(),
            anonymousId,
            productHandle: 'fjord-ceramic-mug',
            path: '/products/fjord-ceramic-mug',
          },
          {
            type: 'add_to_cart',
            occurredAt: recent(),
            anonymousId,
            variantId: 'var_x',
            quantity: 2,
            value: { amount: '398.00', currency: 'SEK' },
          },
          { type: 'search', occurredAt: recent(), anonymousId, query: 'mug 2026', path: '/search?q=mug+2026' },
          { type: 'experiment_exposure', occurredAt: recent(), anonymousId, experiment: { id: 'hero-2026', variant: 'b' } },
        ],
      },
      token,
      { 'Site-Buyer-IP': '203.0.113.77', 'User-Agent': 'e2e-agent-7f3c', 'X-Forwarded-For': '198.51.100.23' },
    );
    expect(res.status(), await res.text()).toBe(202);
    expect(AnalyticsReceipt.parse(await res.json())).toEqual({ accepted: 5, rejected: [] });
    // It names a shopper (Site-Buyer-IP): the shopper's share is the tighter budget, and the one reported.
    expect(res.headers()['ratelimit-policy']).toMatch(/^"shopper-writes";q=\d+;w=\d+$/);

    const rows = await storedFor(anonymousId);
    expect(rows.map((r) => r.type)).toEqual(['page_view', 'product_view', 'add_to_cart', 'search', 'experiment_exposure']);
    expect(Object.keys(rows[0]!).sort()).toEqual(['anonymous_id', 'day', 'id', 'occurred_at', 'payload', 'received_at', 'site_id', 'type']);
    const db = await readOnlyDatabase();
    const site = (await db.execute("SELECT id FROM sites WHERE handle = 'demo'")).rows[0]!;
    const credential = (
      await db.execute({ sql: 'SELECT id FROM credentials WHERE token_hash = ?', args: [createHash('sha256').update(token).digest('hex')] })
    ).rows[0]!;
    const stored = JSON.stringify(rows);
    for (const secret of ['203.0.113.77', '198.51.100.23', '127.0.0.1', 'e2e-agent-7f3c', token, String(credential.id)]) {
      expect(stored).not.toContain(secret);
    }
    for (const row of rows) {
      expect(row.site_id).toBe(site.id);
      expect(row.day).toBe(new Date(Number(row.occurred_at)).toISOString().slice(0, 10));
    }
    expect(JSON.parse(String(rows[2]!.payload))).toEqual({
      variantId: 'var_x',
      quantity: 2,
      value: { amountMinor: 39800, currency: 'SEK' },
    });
  });

  test('rejects events with personal data or a bad shape one by one, and stores the rest', async ({ request }) => {
    const anonymousId = anon();
    const ok = { type: 'page_view', occurredAt: recent(), anonymousId };
    const events = [
      { ...ok, path: '/products/mug-001-blu?color=blue' }, // 0 ok: SKU-like digits
      { ...ok, path: '/newsletter/thanks?email=jane%40example.com' }, // 1 e-mail, URL-encoded
      { ...ok, type: 'search', query: 'call me +46 70 123 45 67' }, // 2 phone
      { ...ok, type: 'search', query: '(555) 123-4567' }, // 3 phone
      { ...ok, path: '/checkout?card=4111%201111%201111%201111' }, // 4 card, URL-encoded
      { ...ok, type: 'signup' }, // 5 unknown type
      { ...ok, referrer: 'x' }, // 6 unknown field
      { ...ok, occurredAt: new Date(Date.now() + 3_600_000).toISOString() }, // 7 far future
      'not an event', // 8
      { ...ok, type: 'add_to_cart', value: { amount: '9.999', currency: 'SEK' } }, // 9 too precise
      { ...ok, type: 'collection_view', collectionHandle: 'kitchen', path: '/collections/kitchen?sort=2026-11-21' }, // 10 ok: a date
      { ...ok, anonymousId: 'short' }, // 11
    ];
    const res = await post(request, PATH, { events });
    expect(res.status(), await res.text()).toBe(202);
    const receipt = AnalyticsReceipt.parse(await res.json());
    expect(receipt.accepted).toBe(2);
    expect(receipt.rejected.map(({ index, code }) => [index, code])).toEqual([
      [1, 'personal_data'],
      [2, 'personal_data'],
      [3, 'personal_data'],
      [4, 'personal_data'],
      [5, 'invalid_event'],
      [6, 'invalid_event'],
      [7, 'occurred_at_out_of_range'],
      [8, 'invalid_event'],
      [9, 'invalid_event'],
      [11, 'invalid_event'],
    ]);
    expect(receipt.rejected.find((r) => r.index === 1)?.pointer).toBe('/events/1/path');
    expect(receipt.rejected.find((r) => r.index === 6)?.pointer).toBe('/events/6/referrer');
    // The answer never echoes what it refused.
    expect(JSON.stringify(receipt)).not.toMatch(/jane|4111|555/);
    const rows = await storedFor(anonymousId);
    expect(rows.map((r) => r.type)).toEqual(['page_view', 'collection_view']);
    expect(JSON.stringify(rows)).not.toMatch(/jane|4111|\+46/);
  });

  test('answers 422 validation_failed for a bad envelope and stores nothing', async ({ request }) => {
    const anonymousId = anon();
    const event = { type: 'page_view', occurredAt: recent(), anonymousId };
    const cases: Array<[string, unknown]> = [
      ['no events', { events: [] }],
      ['51 events', { events: Array.from({ length: 51 }, () => event) }],
      ['an array body', [event]],
      ['a string body', 'events'],
      ['a number body', 42],
      ['events not an array', { events: event }],
      ['no events field', {}],
      ['an unknown top-level field', { events: [event], batchId: 'b1' }],
    ];
    for (const [label, body] of cases) {
      await test.step(label, async () => {
        const res = await post(request, PATH, body);
        await expectProblem(res, 422, 'validation_failed');
      });
    }
    expect(await storedFor(anonymousId)).toHaveLength(0);
  });

  test('answers 413 past 64 KiB, 415 for another media type, 400 for broken JSON', async ({ request }) => {
    const anonymousId = anon();
    const event = { type: 'page_view', occurredAt: recent(), anonymousId, path: `/${'a'.repeat(500)}` };
    const big = post(request, PATH, { events: Array.from({ length: 50 }, () => event), padding: 'x'.repeat(60_000) });
    await expectProblem(await big, 413, 'payload_too_large');
    const text = await request.post(`${V1}${PATH}`, {
      headers: auth(creds().extended, { 'Content-Type': 'text/plain' }),
      data: '{"events":[]}',
      failOnStatusCode: false,
    });
    await expectProblem(text, 415, 'unsupported_media_type');
    const broken = await request.post(`${V1}${PATH}`, {
      headers: auth(creds().extended, { 'Content-Type': 'application/json' }),
      data: Buffer.from('{"events":['),
      failOnStatusCode: false,
    }); // a Buffer: Playwright would JSON-encode a string that does not parse
    await expectProblem(broken, 400, 'invalid_json');
    expect(await storedFor(anonymousId)).toHaveLength(0);
  });

  test('answers 403 insufficient_scope to a core credential and 401 without a live one', async ({ request }) => {
    const body = { events: [{ type: 'page_view', occurredAt: recent(), anonymousId: anon() }] };
    await expectProblem(await post(request, PATH, body, creds().core), 403, 'insufficient_scope');
    const none = await request.post(`${V1}${PATH}`, {
      headers: { 'Content-Type': 'application/json' },
      data: JSON.stringify(body),
      failOnStatusCode: false,
    });
    await expectProblem(none, 401, 'unauthorized');
    expect(none.headers()['www-authenticate']).toBe('Bearer realm="site"');
    await expectProblem(await post(request, PATH, body, creds().revoked), 401, 'unauthorized');
    expect(await storedFor(body.events[0]!.anonymousId)).toHaveLength(0);
  });

  test('answers 405 with Allow to other methods', async ({ request }) => {
    const res = await request.get(`${V1}${PATH}`, { headers: auth(creds().extended), failOnStatusCode: false });
    await expectProblem(res, 405, 'method_not_allowed');
    expect(res.headers().allow).toBe('POST');
  });

  test('keeps events of one Site away from the other', async ({ request }) => {
    const anonymousId = anon();
    const res = await post(request, PATH, { events: [{ type: 'page_view', occurredAt: recent(), anonymousId }] }, creds().outletExtended);
    expect(res.status()).toBe(202);
    const db = await readOnlyDatabase();
    const outlet = (await db.execute("SELECT id FROM sites WHERE handle = 'outlet'")).rows[0]!;
    expect((await storedFor(anonymousId)).map((r) => r.site_id)).toEqual([outlet.id]);
  });
});
