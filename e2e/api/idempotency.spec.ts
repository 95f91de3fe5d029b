import { randomBytes } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { expect, test } from '../support/contract';
import type { Connection } from '@/db';
import { creds, expectProblem, post } from '../support/api';
import { consent, e2eDatabase, freshEmail, NEWSLETTER, rowsFor, STOCK, variantIds } from '../support/signups';

let database: Connection;
test.beforeAll(() => {
  database = e2eDatabase();
});
test.afterAll(() => database.close());

const newKey = () => `e2e-${randomBytes(12).toString('base64url')}`;
const withKey = (key: string) => ({ 'Idempotency-Key': key });
let throwVariant: string | undefined;
async function stockBody(request: APIRequestContext, email = freshEmail()) {
  throwVariant ??= (await variantIds(request, 'aurora-wool-throw'))[0]!;
  return { variantId: throwVariant, email, consent };
}

test.describe('Idempotency-Key', () => {
  test('the same key and body replays the first answer with Idempotent-Replayed: true and does nothing again', async ({ request }) => {
    const key = newKey();
    const body = await stockBody(request);
    const first = await post(request, STOCK, body, creds().core, withKey(key));
    expect(first.status(), await first.text()).toBe(202);
    expect(first.headers()['idempotent-replayed']).toBeUndefined();
    const again = await post(request, STOCK, body, creds().core, withKey(key));
    expect(again.status()).toBe(202);
    expect(again.headers()['idempotent-replayed']).toBe('true');
    expect(await again.text()).toBe(await first.text());
    expect(again.headers()['content-type']).toBe(first.headers()['content-type']);
    expect(again.headers()['x-request-id']).not.toBe(first.headers()['x-request-id']);
    // "Does nothing again": not even a second consent record.
    expect(await rowsFor(database, body.email)).toMatchObject({ stock: 1, consents: 1, outbox: 1 });
  });

  test('the same key with another body is 422 idempotency_key_reused, also on another path', async ({ request }) => {
    const key = newKey();
    const body = await stockBody(request);
    expect((await post(request, STOCK, body, creds().core, withKey(key))).status()).toBe(202);
    const other = { ...body, email: freshEmail() };
    await expectProblem(await post(request, STOCK, other, creds().core, withKey(key)), 422, 'idempotency_key_reused');
    await expectProblem(
      await post(request, NEWSLETTER, { email: body.email, consent }, creds().core, withKey(key)),
      422,
      'idempotency_key_reused',
    );
    expect((await rowsFor(database, other.email)).consents).toBe(0);
  });

  test('keys belong to a credential: another credential with the same key is a request of its own', async ({ request }) => {
    const key = newKey();
    const body = await stockBody(request);
    expect((await post(request, STOCK, body, creds().core, withKey(key))).status()).toBe(202);
    const other = await post(request, STOCK, body, creds().extended, withKey(key));
    expect(other.status()).toBe(202);
    expect(other.headers()['idempotent-replayed']).toBeUndefined();
    expect((await rowsFor(database, body.email)).consents).toBe(2);
  });

  test("a handler's 4xx answer is kept and replayed; a request refused before it runs keeps nothing", async ({ request }) => {
    const key = newKey();
    const body = { ...(await stockBody(request)), variantId: 'var_doesnotexist' };
    await expectProblem(await post(request, STOCK, body, creds().core, withKey(key)), 404, 'not_found');
    const replay = await post(request, STOCK, body, creds().core, withKey(key));
    await expectProblem(replay, 404, 'not_found');
    expect(replay.headers()['idempotent-replayed']).toBe('true');

    // Validation failures (here consent_required) never claim the key: fixing the body with the same key works.
    const key2 = newKey();
    const good = await stockBody(request);
    await expectProblem(
      await post(request, STOCK, { ...good, consent: { ...consent, granted: false } }, creds().core, withKey(key2)),
      422,
      'consent_required',
    );
    const fixed = await post(request, STOCK, good, creds().core, withKey(key2));
    expect(fixed.status()).toBe(202);
    expect(fixed.headers()['idempotent-replayed']).toBeUndefined();
  });

  test('a malformed key is 422 validation_failed at #/header/Idempotency-Key', async ({ request }) => {
    const body = await stockBody(request);
    for (const key of ['k'.repeat(256), 'tab\there']) {
      const problem = await expectProblem(await post(request, STOCK, body, creds().core, withKey(key)), 422, 'validation_failed');
      expect(problem.errors).toEqual([expect.objectContaining({ pointer: '#/header/Idempotency-Key' })]);
    }
    expect((await rowsFor(database, body.email)).consents).toBe(0);
    // 255 printable ASCII characters are fine.
    expect((await post(request, STOCK, body, creds().core, withKey(`${newKey()} ${'~'.repeat(200)}`.slice(0, 255)))).status()).toBe(202);
  });

  test('16 concurrent requests with one new key: one runs, the rest replay it or hear 409 idempotency_key_in_use', async ({ request }) => {
    const key = newKey();
    const body = await stockBody(request, freshEmail('idem16'));
    const answers = await Promise.all(Array.from({ length: 16 }, () => post(request, STOCK, body, creds().core, withKey(key))));
    const original = answers.filter((r) => r.status() === 202 && r.headers()['idempotent-replayed'] === undefined);
    const replays = answers.filter((r) => r.status() === 202 && r.headers()['idempotent-replayed'] === 'true');
    const inUse = answers.filter((r) => r.status() === 409);
    expect(original).toHaveLength(1);
    expect(replays.length + inUse.length).toBe(15);
    for (const r of inUse) {
      await expectProblem(r, 409, 'idempotency_key_in_use');
      expect(r.headers()['retry-after']).toBe('1');
    }
    for (const r of replays) expect(await r.text()).toBe(await original[0]!.text());
    expect(await rowsFor(database, body.email)).toEqual({ stock: 1, newsletter: 0, consents: 1, outbox: 1 });
    const stored = await database.execute({ sql: 'SELECT state, response_status FROM idempotency_keys WHERE key = ?', args: [key] });
    expect(stored.rows.map((r) => [r.state, r.response_status])).toEqual([['done', 202]]);
    // Once settled, everyone gets the replay.
    const late = await post(request, STOCK, body, creds().core, withKey(key));
    expect([late.status(), late.headers()['idempotent-replayed']]).toEqual([202, 'true']);
  });
});
