import type { APIRequestContext } from '@playwright/test';
import { expect, test } from '../support/contract';
import type { Connection } from '@/db';
import { SignupReceipt } from '@/lib/contract/signups';
import { auth, creds, expectProblem, post, V1 } from '../support/api';
import { consent, e2eDatabase, freshEmail, NEWSLETTER, rowsFor, STOCK, variantIds } from '../support/signups';

let database: Connection;
let fixture: { throwVariant: string; toteVariant: string; outletTote: string; draft: string } | undefined;
test.beforeAll(() => {
  database = e2eDatabase();
});
test.afterAll(() => database.close());

async function fixtures(request: APIRequestContext) {
  if (fixture) return fixture;
  const draft = await database.execute(
    "SELECT v.id FROM product_variants v JOIN products p ON p.id = v.product_id JOIN sites s ON s.id = p.site_id WHERE s.handle = 'demo' AND p.handle = 'draft-winter-parka' LIMIT 1",
  );
  fixture = {
    throwVariant: (await variantIds(request, 'aurora-wool-throw'))[0]!,
    toteVariant: (await variantIds(request, 'linen-tote-bag'))[0]!,
    outletTote: (await variantIds(request, 'linen-tote-bag', creds().outletCore))[0]!,
    draft: String(draft.rows[0]!.id),
  };
  return fixture;
}

type Op = { name: string; path: string; body: (request: APIRequestContext, email: string) => Promise<Record<string, unknown>> };
const OPS: Op[] = [
  {
    name: 'stock subscription',
    path: STOCK,
    body: async (request, email) => ({ variantId: (await fixtures(request)).throwVariant, email, consent }),
  },
  { name: 'newsletter subscription', path: NEWSLETTER, body: async (_, email) => ({ email, consent, source: 'footer' }) },
];

for (const op of OPS) {
  test.describe(`POST ${op.path}`, () => {
    test('answers 202 { status: "accepted" }, no-store, and starts a pending subscription', async ({ request }) => {
      const email = freshEmail();
      const res = await post(request, op.path, await op.body(request, email), creds().core);
      expect(res.status(), await res.text()).toBe(202);
      expect(SignupReceipt.parse(await res.json())).toEqual({ status: 'accepted' });
      expect(res.headers()['content-type']).toContain('application/json');
      expect(res.headers()['cache-control']).toBe('no-store');
      expect(res.headers()['x-request-id']).toBeTruthy();
      const status = op.path === STOCK ? 'stock_subscriptions' : 'newsletter_subscriptions';
      const row = await database.execute({ sql: `SELECT status FROM ${status} WHERE email = ?`, args: [email] });
      expect(row.rows.map((r) => r.status)).toEqual(['pending_confirmation']);
    });

    test('answers a known address exactly like a new one, with no second row and no second message', async ({ request }) => {
      const email = freshEmail();
      const body = await op.body(request, email);
      const first = await post(request, op.path, body, creds().core);
      const again = await post(request, op.path, { ...body, email: email.toUpperCase() }, creds().core);
      expect([first.status(), again.status()]).toEqual([202, 202]);
      expect(await again.text()).toBe(await first.text());
      const rows = await rowsFor(database, email);
      expect(rows).toMatchObject({ consents: 2, outbox: 1, [op.path === STOCK ? 'stock' : 'newsletter']: 1 });
    });

    test('answers 401 without, with a malformed, an unknown or a revoked credential', async ({ request }) => {
      const body = JSON.stringify(await op.body(request, freshEmail()));
      const none = await request.post(`${V1}${op.path}`, { headers: { 'Content-Type': 'application/json' }, data: body });
      await expectProblem(none, 401, 'unauthorized');
      expect(none.headers()['www-authenticate']).toBe('Bearer realm="site"');
      for (const token of ['nonsense', `site_core_${'A'.repeat(40)}`, creds().revoked]) {
        await expectProblem(await post(request, op.path, JSON.parse(body), token), 401, 'unauthorized');
      }
      await expectProblem(
        await request.post(`${V1}${op.path}`, {
          headers: { Authorization: `Basic ${creds().core}`, 'Content-Type': 'application/json' },
          data: body,
        }),
        401,
        'unauthorized',
      );
    });

    test('takes JSON only (415), at most 64 KiB (413), and answers 400 to malformed JSON', async ({ request }) => {
      const body = JSON.stringify(await op.body(request, freshEmail()));
      const url = `${V1}${op.path}`;
      await expectProblem(
        await request.post(url, { headers: auth(creds().core, { 'Content-Type': 'text/plain' }), data: body }),
        415,
        'unsupported_media_type',
      );
      await expectProblem(
        await request.post(url, {
          headers: auth(creds().core, { 'Content-Type': 'application/x-www-form-urlencoded' }),
          data: 'email=a@x.se',
        }),
        415,
        'unsupported_media_type',
      );
      const huge = JSON.stringify({ ...JSON.parse(body), padding: 'x'.repeat(65 * 1024) });
      await expectProblem(
        await request.post(url, { headers: auth(creds().core, { 'Content-Type': 'application/json' }), data: huge }),
        413,
        'payload_too_large',
      );
      // A Buffer, because Playwright would quote a string that is not JSON.
      for (const broken of ['{"email": ', '{email: "a@x.se"}', "{'a':1}", '[1,2', '\u0000', '{"a":1}{"b":2}']) {
        await expectProblem(
          await request.post(url, { headers: auth(creds().core, { 'Content-Type': 'application/json' }), data: Buffer.from(broken) }),
          400,
          'invalid_json',
        );
      }
      const notUtf8 = Buffer.concat([Buffer.from('{"email":"'), Buffer.from([0xff, 0xfe]), Buffer.from('@x.se"}')]);
      await expectProblem(
        await request.post(url, { headers: auth(creds().core, { 'Content-Type': 'application/json' }), data: notUtf8 }),
        400,
        'invalid_json',
      );
      // the media type is judged first, whatever the bytes (413, then 415, then 400)
      await expectProblem(
        await request.post(url, { headers: auth(creds().core, { 'Content-Type': 'text/plain' }), data: notUtf8 }),
        415,
        'unsupported_media_type',
      );
    });

    test('refuses unknown fields with 422 validation_failed, pointing at each', async ({ request }) => {
      const body = await op.body(request, freshEmail());
      const problem = await expectProblem(await post(request, op.path, { ...body, isAdmin: true }, creds().core), 422, 'validation_failed');
      expect(problem.errors).toContainEqual(expect.objectContaining({ pointer: '/isAdmin', code: 'unknown_field' }));
      const nested = await expectProblem(
        await post(request, op.path, { ...body, consent: { ...consent, ip: '1.2.3.4' } }, creds().core),
        422,
        'validation_failed',
      );
      expect(nested.errors).toContainEqual(expect.objectContaining({ pointer: '/consent/ip', code: 'unknown_field' }));
      const proto = await post(request, op.path, JSON.parse(`{"__proto__":{"admin":true},${JSON.stringify(body).slice(1)}`), creds().core);
      await expectProblem(proto, 422, 'validation_failed');
    });

    const consentCases: [string, (body: Record<string, unknown>) => Record<string, unknown>, string][] = [
      ['missing', (b) => Object.fromEntries(Object.entries(b).filter(([k]) => k !== 'consent')), '/consent'],
      ['null', (b) => ({ ...b, consent: null }), '/consent'],
      ['granted false', (b) => ({ ...b, consent: { ...consent, granted: false } }), '/consent/granted'],
      ['granted "true" (a string)', (b) => ({ ...b, consent: { ...consent, granted: 'true' } }), '/consent/granted'],
      ['without granted', (b) => ({ ...b, consent: { text: consent.text, version: consent.version } }), '/consent/granted'],
    ];
    for (const [label, change, pointer] of consentCases) {
      test(`answers 422 consent_required when consent is ${label}, and stores nothing`, async ({ request }) => {
        const email = freshEmail();
        // Other faults too: consent is what the caller hears about first.
        const body = change({ ...(await op.body(request, email)), extra: 1 });
        const problem = await expectProblem(await post(request, op.path, body, creds().core), 422, 'consent_required');
        expect(problem.errors).toEqual([expect.objectContaining({ pointer, code: 'consent_required' })]);
        expect(await rowsFor(database, email)).toEqual({ stock: 0, newsletter: 0, consents: 0, outbox: 0 });
      });
    }

    test('checks the consent text and version', async ({ request }) => {
      const body = await op.body(request, freshEmail());
      for (const [bad, pointer] of [
        [{ text: '' }, '/consent/text'],
        [{ text: 'x'.repeat(2001) }, '/consent/text'],
        [{ version: '' }, '/consent/version'],
        [{ version: 'v'.repeat(65) }, '/consent/version'],
      ] as const) {
        const problem = await expectProblem(
          await post(request, op.path, { ...body, consent: { ...consent, ...bad } }, creds().core),
          422,
          'validation_failed',
        );
        expect(problem.errors!.map((e) => e.pointer)).toContain(pointer);
      }
    });

    test('validates and normalises the e-mail address', async ({ request }) => {
      const body = await op.body(request, freshEmail());
      for (const email of [
        '',
        'not-an-address',
        'a@b',
        'two@@example.se',
        'space in@example.se',
        `${'a'.repeat(250)}@example.se`,
        'x@example.se\r\nBcc: victim@example.se',
        42,
        null,
      ]) {
        const problem = await expectProblem(await post(request, op.path, { ...body, email }, creds().core), 422, 'validation_failed');
        expect(problem.errors!.map((e) => e.pointer)).toContain('/email');
      }
      const local = `Mixed.Case.${freshEmail('n').split('@')[0]}`;
      const res = await post(request, op.path, { ...body, email: `  ${local}@Exämple.SE ` }, creds().core);
      expect(res.status(), await res.text()).toBe(202);
      const stored = `${local.toLowerCase()}@xn--exmple-cua.se`;
      expect((await rowsFor(database, stored)).consents).toBe(1);
    });

    test('survives hostile input: SQL-ish, unicode, huge and control-laden strings', async ({ request }) => {
      const base = await op.body(request, freshEmail());
      const sqlish = `o'neil+${Date.now()}@example.se`;
      const ok = await post(
        request,
        op.path,
        {
          ...base,
          email: sqlish,
          consent: { ...consent, text: "Robert'); DROP TABLE consents;-- 📬 Ja tack! Größe ✓", version: "1' OR '1'='1" },
        },
        creds().core,
      );
      expect(ok.status(), await ok.text()).toBe(202);
      const stored = await database.execute({ sql: 'SELECT text, text_version FROM consents WHERE email = ?', args: [sqlish] });
      expect(stored.rows[0]).toMatchObject({ text: "Robert'); DROP TABLE consents;-- 📬 Ja tack! Größe ✓", text_version: "1' OR '1'='1" });

      for (const hostile of [
        { email: `${'a'.repeat(60_000)}@x.se` },
        { consent: { ...consent, text: 'a\u0000b' } },
        { consent: { ...consent, version: 'v1\n' } },
        { locale: "sv-SE'; --" },
        { market: { $ne: null } },
        { email: ['a@x.se'] },
      ]) {
        const res = await post(request, op.path, { ...base, ...hostile }, creds().core);
        await expectProblem(res, 422, 'validation_failed');
      }
      // A body that is not an object at all is the schema's to refuse.
      await expectProblem(await post(request, op.path, [base], creds().core), 422, 'validation_failed');
    });

    test('validates market and locale against the Site', async ({ request }) => {
      const base = await op.body(request, freshEmail());
      const market = await expectProblem(await post(request, op.path, { ...base, market: 'xx' }, creds().core), 422, 'unknown_market');
      expect(market.errors![0]!.pointer).toBe('/market');
      const locale = await expectProblem(
        await post(request, op.path, { ...base, market: 'de', locale: 'sv-SE' }, creds().core),
        422,
        'unsupported_locale',
      );
      expect(locale.errors![0]!.pointer).toBe('/locale');
      const email = freshEmail();
      expect(
        (await post(request, op.path, { ...(await op.body(request, email)), market: 'de', locale: 'en-DE' }, creds().core)).status(),
      ).toBe(202);
      const consentRow = await database.execute({ sql: 'SELECT locale FROM consents WHERE email = ?', args: [email] });
      expect(consentRow.rows[0]!.locale).toBe('en-DE');
    });

    test('never stores the Site-Buyer-IP', async ({ request }) => {
      const email = freshEmail();
      const res = await post(request, op.path, await op.body(request, email), creds().core, { 'Site-Buyer-IP': '203.0.113.77' });
      expect(res.status()).toBe(202);
      // Nowhere in what a signup writes (the rate limiter may use it to partition budgets; that is all).
      for (const table of ['consents', 'stock_subscriptions', 'newsletter_subscriptions', 'outbox_messages', 'idempotency_keys']) {
        const rows = await database.execute(`SELECT * FROM ${table}`);
        expect(JSON.stringify(rows.rows), table).not.toContain('203.0.113.77');
      }
      expect((await rowsFor(database, email)).consents).toBe(1);
    });

    test('answers 405 with Allow: POST to other methods', async ({ request }) => {
      const res = await request.get(`${V1}${op.path}`, { headers: auth(creds().core) });
      await expectProblem(res, 405, 'method_not_allowed');
      expect(res.headers().allow).toBe('POST');
    });

    test('16 signups of one address at once: all 202, one subscription, one message', async ({ request }) => {
      const email = freshEmail('burst');
      const body = await op.body(request, email);
      const answers = await Promise.all(Array.from({ length: 16 }, () => post(request, op.path, body, creds().core)));
      expect(answers.map((r) => r.status())).toEqual(Array(16).fill(202));
      const rows = await rowsFor(database, email);
      expect(rows).toMatchObject({ consents: 16, outbox: 1, [op.path === STOCK ? 'stock' : 'newsletter']: 1 });
    });
  });
}

test.describe(`POST ${STOCK} only`, () => {
  test("answers 404 for an unknown, an unpublished or another Site's variant", async ({ request }) => {
    const f = await fixtures(request);
    for (const variantId of ['var_doesnotexist', f.draft, f.outletTote, "var_x' OR '1'='1", 'x'.repeat(200)]) {
      const email = freshEmail();
      await expectProblem(await post(request, STOCK, { variantId, email, consent }, creds().core), 404, 'not_found');
      expect((await rowsFor(database, email)).consents).toBe(0);
    }
    // The outlet's own credential can sign up for the outlet's variant.
    expect((await post(request, STOCK, { variantId: f.outletTote, email: freshEmail(), consent }, creds().outletCore)).status()).toBe(202);
  });

  test('takes the default flow, or a named enabled one; refuses an unknown or disabled flow with 422 unknown_flow', async ({ request }) => {
    const f = await fixtures(request);
    const email = freshEmail();
    expect((await post(request, STOCK, { variantId: f.throwVariant, email, consent }, creds().core)).status()).toBe(202);
    // The default flow is back-in-stock-email: naming it is the same subscription.
    expect(
      (await post(request, STOCK, { variantId: f.throwVariant, email, consent, flow: 'back-in-stock-email' }, creds().core)).status(),
    ).toBe(202);
    expect(await rowsFor(database, email)).toMatchObject({ stock: 1, outbox: 1, consents: 2 });
    for (const flow of ['no-such-flow', 'sms-legacy', 'BACK-IN-STOCK-EMAIL', "' OR 1=1 --", '']) {
      const res = await post(request, STOCK, { variantId: f.throwVariant, email: freshEmail(), consent, flow }, creds().core);
      if (flow === '') await expectProblem(res, 422, 'validation_failed');
      else expect((await expectProblem(res, 422, 'unknown_flow')).errors![0]!.pointer).toBe('/flow');
    }
  });

  test('a stock signup is never a newsletter signup, and the reverse', async ({ request }) => {
    const f = await fixtures(request);
    const email = freshEmail();
    await post(request, STOCK, { variantId: f.toteVariant, email, consent }, creds().core);
    expect(await rowsFor(database, email)).toEqual({ stock: 1, newsletter: 0, consents: 1, outbox: 1 });
    await post(request, NEWSLETTER, { email, consent: { ...consent, text: 'Send me the newsletter.' } }, creds().core);
    expect(await rowsFor(database, email)).toEqual({ stock: 1, newsletter: 1, consents: 2, outbox: 2 });
    const purposes = await database.execute({ sql: 'SELECT purpose FROM consents WHERE email = ? ORDER BY created_at', args: [email] });
    expect(purposes.rows.map((r) => r.purpose)).toEqual(['stock_notification', 'newsletter']);
    const links = await database.execute({
      sql: 'SELECT (SELECT consent_id FROM stock_subscriptions WHERE email = ?) AS s, (SELECT consent_id FROM newsletter_subscriptions WHERE email = ?) AS n',
      args: [email, email],
    });
    expect(links.rows[0]!.s).not.toBe(links.rows[0]!.n);
  });

  test('requires variantId and takes the extended credential too', async ({ request }) => {
    const problem = await expectProblem(
      await post(request, STOCK, { email: freshEmail(), consent }, creds().core),
      422,
      'validation_failed',
    );
    expect(problem.errors!.map((e) => e.pointer)).toContain('/variantId');
    expect(
      (
        await post(request, STOCK, { variantId: (await fixtures(request)).throwVariant, email: freshEmail(), consent }, creds().extended)
      ).status(),
    ).toBe(202);
  });
});
