import { expect, test } from '../support/contract';
import { SubscriptionState } from '@/lib/contract/signups';
import { auth, creds, expectProblem, post, V1 } from '../support/api';
import { consent, e2eDatabase, freshEmail, NEWSLETTER } from '../support/signups';
import { emlMailsTo, header, linkTo, tokenIn, waitFor } from '../support/mail';

const CONFIRM = '/subscriptions/confirmations';
const WITHDRAW = '/subscriptions/withdrawals';

/**
 * The e2e server runs without SMTP_URL, so its background drain writes each mail as an .eml
 * file under the data folder: the mail a signup sends, read back from there.
 */
async function signUpAndReadMail(request: Parameters<typeof post>[0], email: string) {
  const res = await post(request, NEWSLETTER, { email, consent, locale: 'en-SE' }, creds().core);
  expect(res.status(), await res.text()).toBe(202);
  const [raw] = await waitFor(
    () => {
      const mails = emlMailsTo(email);
      return mails.length > 0 ? mails : null;
    },
    `the confirmation mail to ${email}`,
    20_000,
  );
  return raw!;
}

test.describe('subscription links (confirm, unsubscribe)', () => {
  test('the mail of a signup confirms by its token, once and harmlessly again; the unsubscribe token ends it', async ({ request }) => {
    const email = freshEmail('links');
    const raw = await signUpAndReadMail(request, email);
    const confirm = tokenIn(linkTo(raw, '/subscriptions/confirm'));
    const unsubscribe = tokenIn(linkTo(raw, '/subscriptions/unsubscribe'));
    expect(header(raw, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');

    // Each token does its one thing only.
    await expectProblem(await post(request, WITHDRAW, { token: confirm }, creds().core), 404, 'unknown_token');
    await expectProblem(await post(request, CONFIRM, { token: unsubscribe }, creds().core), 404, 'unknown_token');
    // Another Site's credential does not know this Site's tokens.
    await expectProblem(await post(request, CONFIRM, { token: confirm }, creds().outletCore), 404, 'unknown_token');

    let res = await post(request, CONFIRM, { token: confirm }, creds().core);
    expect(res.status(), await res.text()).toBe(200);
    expect(SubscriptionState.parse(await res.json())).toEqual({ kind: 'newsletter', status: 'active', changed: true });
    res = await post(request, CONFIRM, { token: confirm }, creds().core);
    expect(await res.json()).toEqual({ kind: 'newsletter', status: 'active', changed: false });

    res = await post(request, WITHDRAW, { token: unsubscribe, method: 'one_click' }, creds().core);
    expect(res.status(), await res.text()).toBe(200);
    expect(await res.json()).toEqual({ kind: 'newsletter', status: 'unsubscribed', changed: true });

    const database = e2eDatabase();
    try {
      const rows = await database.execute({
        sql: 'SELECT n.status, c.confirmed_at, c.withdrawn_at, c.withdrawn_via FROM newsletter_subscriptions n JOIN consents c ON c.id = n.consent_id WHERE n.email = ?',
        args: [email],
      });
      expect(rows.rows[0]).toMatchObject({ status: 'unsubscribed', withdrawn_via: 'one_click' });
      expect(rows.rows[0]!.confirmed_at).not.toBeNull();
      expect(rows.rows[0]!.withdrawn_at).not.toBeNull();
    } finally {
      database.close();
    }
  });

  for (const path of [CONFIRM, WITHDRAW]) {
    test.describe(`POST ${path}`, () => {
      test('401 without a credential', async ({ request }) => {
        const res = await request.post(`${V1}${path}`, { data: { token: 'a'.repeat(43) }, failOnStatusCode: false });
        await expectProblem(res, 401, 'unauthorized');
      });

      test('404 unknown_token for a well-formed token nobody issued', async ({ request }) => {
        await expectProblem(await post(request, path, { token: 'A'.repeat(43) }, creds().core), 404, 'unknown_token');
      });

      test('422 for a missing, malformed or extra field', async ({ request }) => {
        for (const body of [{}, { token: 'not a token!' }, { token: 'x' }, { token: 'a'.repeat(43), extra: 1 }]) {
          const problem = await expectProblem(await post(request, path, body, creds().core), 422, 'validation_failed');
          expect(problem.errors?.length ?? 0).toBeGreaterThan(0);
        }
      });

      test('405 with Allow for GET', async ({ request }) => {
        const res = await request.get(`${V1}${path}`, { headers: auth(creds().core), failOnStatusCode: false });
        await expectProblem(res, 405, 'method_not_allowed');
        expect(res.headers()['allow']).toBe('POST');
      });
    });
  }

  test('both operations are in the OpenAPI document', async ({ request }) => {
    const doc = await (await request.get(`${V1}/openapi.json`)).json();
    expect(doc.paths[`${V1}${CONFIRM}`].post.operationId).toBe('confirmSubscription');
    expect(doc.paths[`${V1}${WITHDRAW}`].post.operationId).toBe('withdrawSubscription');
    expect(Object.keys(doc.paths[`${V1}${CONFIRM}`].post.responses)).toEqual(expect.arrayContaining(['200', '404', '410', '422']));
  });
});
