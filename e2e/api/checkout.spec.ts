import { randomBytes } from 'node:crypto';
import type { Connection } from '@/db';
import type { APIRequestContext } from '@playwright/test';
import { expect, test } from '../support/contract';
import { Product } from '@/lib/contract/catalog';
import { CheckoutSession } from '@/lib/contract/checkout';
import { auth, creds, expectProblem, get, post, V1 } from '../support/api';
import { mainDatabaseUrl, rawClient } from '../support/instances';

const PATH = '/commerce/checkout-sessions';

/** The e2e server's database, read-only: for ids the API rightly never shows (drafts) and for counting rows. */
let database: Connection | undefined;
async function readOnlyDatabase(): Promise<Connection> {
  if (!database) {
    database = rawClient(mainDatabaseUrl());
    await database.execute('PRAGMA query_only = ON');
  }
  return database;
}
test.afterAll(() => {
  // A worker may run this file's hooks again: never hand a closed client to a later test.
  database?.close();
  database = undefined;
});

type Fixture = {
  mugWhite: string;
  mugSand: string;
  tote: string;
  throwGrey: string;
  jacketXL: string;
  draft: string;
  outletTote: string;
  prices: Map<string, number>;
};
let fixture: Fixture | undefined;

const minor = (amount: string) => Number(amount.replace('.', ''));

/** A product, by default in en-SE, so its variants are found by their stored (English) titles. */
async function product(request: APIRequestContext, handle: string, token = creds().core, query = 'locale=en-SE') {
  const res = await get(request, `/commerce/products/${handle}?${query}`, token);
  expect(res.status(), await res.text()).toBe(200);
  return Product.parse(await res.json());
}

async function fixtures(request: APIRequestContext): Promise<Fixture> {
  if (fixture) return fixture;
  const [mug, tote, aurora, jacket, outlet] = await Promise.all(
    [['fjord-ceramic-mug'], ['linen-tote-bag'], ['aurora-wool-throw'], ['polar-down-jacket'], ['linen-tote-bag', creds().outletCore]].map(
      ([h, t]) => product(request, h!, t),
    ),
  );
  const byTitle = (p: Product, title: string) => p.variants.find((v) => v.title === title)!.id;
  const prices = new Map([mug!, tote!].flatMap((p) => p.variants.map((v) => [v.id, minor(v.price.amount)] as const)));
  const db = await readOnlyDatabase();
  const draft = await db.execute(
    "SELECT v.id FROM product_variants v JOIN products p ON p.id = v.product_id JOIN sites s ON s.id = p.site_id WHERE s.handle = 'demo' AND p.handle = 'draft-winter-parka' LIMIT 1",
  );
  fixture = {
    mugWhite: byTitle(mug!, 'White'),
    mugSand: byTitle(mug!, 'Sand'),
    tote: byTitle(tote!, 'Natural'),
    throwGrey: aurora!.variants[0]!.id,
    jacketXL: byTitle(jacket!, 'XL'),
    draft: String(draft.rows[0]!.id),
    outletTote: outlet!.variants[0]!.id,
    prices,
  };
  return fixture;
}

test.describe(`POST ${PATH}`, () => {
  test('creates a session priced from the catalog: 201, Location, merged lines, totals; GET has a strong ETag', async ({ request }) => {
    const f = await fixtures(request);
    const res = await post(
      request,
      PATH,
      {
        lines: [
          { variantId: f.mugWhite, quantity: 2 },
          { variantId: f.tote, quantity: 1 },
          { variantId: f.mugWhite, quantity: 1 },
        ],
      },
      creds().core,
    );
    expect(res.status(), await res.text()).toBe(201);
    const session = CheckoutSession.parse(await res.json());
    expect(res.headers().location).toBe(`${V1}${PATH}/${session.id}`);
    expect(session).toMatchObject({
      status: 'open',
      market: 'se',
      locale: 'sv-SE',
      currency: 'SEK',
      email: null,
      shippingAddress: null,
      deliveryOption: null,
    });
    expect(session.id).toMatch(/^cs_[0-9A-Za-z]+$/);
    expect(session.lines.map((l) => [l.variantId, l.quantity])).toEqual([
      [f.mugWhite, 3],
      [f.tote, 1],
    ]);
    for (const line of session.lines) {
      expect(minor(line.unitPrice.amount)).toBe(f.prices.get(line.variantId));
      expect(minor(line.total.amount)).toBe(f.prices.get(line.variantId)! * line.quantity);
    }
    const subtotal = f.prices.get(f.mugWhite)! * 3 + f.prices.get(f.tote)!;
    expect(session.totals).toEqual({
      subtotal: { amount: (subtotal / 100).toFixed(2), currency: 'SEK' },
      shipping: null,
      tax: { amount: (Math.round(subtotal / 5) / 100).toFixed(2), currency: 'SEK' }, // 25% included = a fifth of the gross
      total: { amount: (subtotal / 100).toFixed(2), currency: 'SEK' },
    });
    expect(session.checkoutUrl).toMatch(new RegExp(`^https?://.+/checkout/${session.id}$`));
    expect(Date.parse(session.expiresAt) - Date.parse(session.createdAt)).toBe(24 * 3600 * 1000);

    const read = await get(request, `${PATH}/${session.id}`, creds().extended);
    expect(read.status()).toBe(200);
    expect(CheckoutSession.parse(await read.json())).toEqual(session);
    expect(read.headers().etag).toBe(`"${session.id}-r1"`);
    expect(read.headers()['cache-control']).toBe('private, no-cache');
    const again = await get(request, `${PATH}/${session.id}`, creds().extended, { 'If-None-Match': read.headers().etag! });
    expect(again.status()).toBe(304);
  });

  test('prices in the requested market; US adds (zero) tax on top', async ({ request }) => {
    const f = await fixtures(request);
    const us = await product(request, 'fjord-ceramic-mug', creds().core, 'market=us');
    const res = await post(request, PATH, { lines: [{ variantId: f.mugWhite, quantity: 2 }], market: 'us' }, creds().core);
    expect(res.status()).toBe(201);
    const session = CheckoutSession.parse(await res.json());
    const unit = minor(us.variants.find((v) => v.id === f.mugWhite)!.price.amount);
    expect(session).toMatchObject({ market: 'us', currency: 'USD', locale: 'en-US' });
    expect(session.totals.tax.amount).toBe('0.00');
    expect(minor(session.totals.total.amount)).toBe(2 * unit);
  });

  test('answers 405 with Allow to GET on the collection', async ({ request }) => {
    const res = await get(request, PATH, creds().extended);
    await expectProblem(res, 405, 'method_not_allowed');
    expect(res.headers().allow).toBe('POST');
  });

  test('answers 401 without or with a revoked credential', async ({ request }) => {
    const none = await request.post(`${V1}${PATH}`, { data: { lines: [] }, failOnStatusCode: false });
    await expectProblem(none, 401, 'unauthorized');
    expect(none.headers()['www-authenticate']).toBe('Bearer realm="site"');
    await expectProblem(await post(request, PATH, { lines: [] }, creds().revoked), 401, 'unauthorized');
  });

  type Case = { name: string; body: (f: Fixture) => unknown; status: number; code: string; pointers?: string[] };
  const cases: Case[] = [
    {
      name: 'a bogus variant',
      body: () => ({ lines: [{ variantId: 'var_doesnotexist', quantity: 1 }] }),
      status: 422,
      code: 'unknown_variant',
      pointers: ['/lines/0/variantId'],
    },
    {
      name: "a draft product's variant",
      body: (f) => ({
        lines: [
          { variantId: f.mugWhite, quantity: 1 },
          { variantId: f.draft, quantity: 1 },
        ],
      }),
      status: 422,
      code: 'unknown_variant',
      pointers: ['/lines/1/variantId'],
    },
    {
      name: "the outlet Site's variant",
      body: (f) => ({ lines: [{ variantId: f.outletTote, quantity: 1 }] }),
      status: 422,
      code: 'unknown_variant',
      pointers: ['/lines/0/variantId'],
    },
    {
      name: 'several unknown variants at once',
      body: (f) => ({
        lines: [
          { variantId: 'var_x', quantity: 1 },
          { variantId: f.mugWhite, quantity: 1 },
          { variantId: f.draft, quantity: 1 },
          { variantId: f.outletTote, quantity: 1 },
        ],
      }),
      status: 422,
      code: 'unknown_variant',
      pointers: ['/lines/0/variantId', '/lines/2/variantId', '/lines/3/variantId'],
    },
    {
      name: 'an out-of-stock variant (aurora-wool-throw)',
      body: (f) => ({ lines: [{ variantId: f.throwGrey, quantity: 1 }] }),
      status: 409,
      code: 'insufficient_stock',
      pointers: ['/lines/0/variantId'],
    },
    {
      name: '99 of a low-stock variant',
      body: (f) => ({
        lines: [
          { variantId: f.mugWhite, quantity: 1 },
          { variantId: f.mugSand, quantity: 99 },
        ],
      }),
      status: 409,
      code: 'insufficient_stock',
      pointers: ['/lines/1/variantId'],
    },
    { name: 'no lines', body: () => ({ lines: [] }), status: 422, code: 'validation_failed', pointers: ['/lines'] },
    {
      name: '101 lines',
      body: (f) => ({ lines: Array.from({ length: 101 }, () => ({ variantId: f.mugWhite, quantity: 1 })) }),
      status: 422,
      code: 'validation_failed',
      pointers: ['/lines'],
    },
    {
      name: 'quantity 0',
      body: (f) => ({ lines: [{ variantId: f.mugWhite, quantity: 0 }] }),
      status: 422,
      code: 'validation_failed',
      pointers: ['/lines/0/quantity'],
    },
    {
      name: 'quantity 100',
      body: (f) => ({ lines: [{ variantId: f.mugWhite, quantity: 100 }] }),
      status: 422,
      code: 'validation_failed',
      pointers: ['/lines/0/quantity'],
    },
    {
      name: 'quantity 1.5',
      body: (f) => ({ lines: [{ variantId: f.mugWhite, quantity: 1.5 }] }),
      status: 422,
      code: 'validation_failed',
      pointers: ['/lines/0/quantity'],
    },
    {
      name: 'quantity "2"',
      body: (f) => ({ lines: [{ variantId: f.mugWhite, quantity: '2' }] }),
      status: 422,
      code: 'validation_failed',
      pointers: ['/lines/0/quantity'],
    },
    {
      name: 'merged quantity over 99',
      body: (f) => ({
        lines: [
          { variantId: f.mugWhite, quantity: 50 },
          { variantId: f.mugWhite, quantity: 50 },
        ],
      }),
      status: 422,
      code: 'validation_failed',
      pointers: ['/lines/0/quantity', '/lines/1/quantity'],
    },
    {
      name: 'a price from the caller',
      body: (f) => ({ lines: [{ variantId: f.mugWhite, quantity: 1, unitPrice: { amount: '1.00', currency: 'SEK' } }] }),
      status: 422,
      code: 'validation_failed',
      pointers: ['/lines/0/unitPrice'],
    },
    {
      name: 'extra fields',
      body: (f) => ({ lines: [{ variantId: f.mugWhite, quantity: 1 }], total: '1.00', status: 'completed' }),
      status: 422,
      code: 'validation_failed',
      pointers: ['/total', '/status'],
    },
    {
      name: 'a bad email',
      body: (f) => ({ lines: [{ variantId: f.mugWhite, quantity: 1 }], email: 'nope' }),
      status: 422,
      code: 'validation_failed',
      pointers: ['/email'],
    },
    {
      name: 'an unknown market',
      body: (f) => ({ lines: [{ variantId: f.mugWhite, quantity: 1 }], market: 'jp' }),
      status: 422,
      code: 'unknown_market',
      pointers: ['/market'],
    },
    {
      name: 'a locale the market does not offer',
      body: (f) => ({ lines: [{ variantId: f.mugWhite, quantity: 1 }], market: 'us', locale: 'sv-SE' }),
      status: 422,
      code: 'unsupported_locale',
      pointers: ['/locale'],
    },
  ];
  for (const c of cases) {
    test(`answers ${c.status} ${c.code} to ${c.name}`, async ({ request }) => {
      const problem = await expectProblem(await post(request, PATH, c.body(await fixtures(request)), creds().core), c.status, c.code);
      if (c.pointers) expect(problem.errors?.map((e) => e.pointer).sort()).toEqual([...c.pointers].sort());
    });
  }

  test('sells a preorder variant in any quantity', async ({ request }) => {
    const f = await fixtures(request);
    expect((await post(request, PATH, { lines: [{ variantId: f.jacketXL, quantity: 99 }] }, creds().core)).status()).toBe(201);
  });

  test('answers 400 to broken JSON and 415 to another media type', async ({ request }) => {
    const broken = await request.post(`${V1}${PATH}`, {
      headers: auth(creds().core, { 'Content-Type': 'application/json' }),
      data: Buffer.from('{"lines": ['),
      failOnStatusCode: false,
    });
    await expectProblem(broken, 400, 'invalid_json');
    const form = await request.post(`${V1}${PATH}`, {
      headers: auth(creds().core, { 'Content-Type': 'text/plain' }),
      data: Buffer.from('{"lines":[]}'),
      failOnStatusCode: false,
    });
    await expectProblem(form, 415, 'unsupported_media_type');
    // JSON is UTF-8: a body declared in another charset is not read as if it were.
    for (const type of ['application/json; charset=utf-16', 'application/json;charset="ISO-8859-1"']) {
      const declared = await request.post(`${V1}${PATH}`, {
        headers: auth(creds().core, { 'Content-Type': type }),
        data: Buffer.from('{"lines":[]}'),
        failOnStatusCode: false,
      });
      await expectProblem(declared, 415, 'unsupported_media_type');
    }
    // …while UTF-8 said any way, and a +json type, are JSON.
    for (const type of ['application/json; charset=UTF-8', 'application/json;charset="utf8"', 'application/merge-patch+json']) {
      const fine = await request.post(`${V1}${PATH}`, {
        headers: auth(creds().core, { 'Content-Type': type }),
        data: Buffer.from('{"lines":[]}'),
        failOnStatusCode: false,
      });
      await expectProblem(fine, 422, 'validation_failed');
    }
  });

  test('16 concurrent POSTs with one Idempotency-Key create exactly one session', async ({ request }) => {
    const f = await fixtures(request);
    const email = `idem-${randomBytes(6).toString('hex')}@example.com`;
    const key = `e2e-checkout-${randomBytes(8).toString('hex')}`;
    const body = { lines: [{ variantId: f.mugWhite, quantity: 1 }], email };
    const send = () => post(request, PATH, body, creds().core, { 'Idempotency-Key': key });
    const first = await Promise.all(Array.from({ length: 16 }, send));
    const ids = new Set<string>();
    for (let res of first) {
      // A request that arrives while the first is still running is told so; a retry replays the answer.
      for (let tries = 0; res.status() === 409 && tries < 20; tries += 1) {
        await expectProblem(res, 409, 'idempotency_key_in_use');
        await new Promise((r) => setTimeout(r, 100));
        res = await send();
      }
      expect(res.status(), await res.text()).toBe(201);
      ids.add(CheckoutSession.parse(await res.json()).id);
    }
    expect(ids.size).toBe(1);
    const [id] = [...ids];
    expect((await get(request, `${PATH}/${id}`, creds().extended)).status()).toBe(200);
    const rows = await (await readOnlyDatabase()).execute({ sql: 'SELECT id FROM checkout_sessions WHERE email = ?', args: [email] });
    expect(rows.rows.map((r) => String(r.id))).toEqual([id]);
  });
});
