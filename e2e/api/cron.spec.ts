// Background jobs without a long-lived process: an instance with JOBS=cron runs no timers,
// and a platform's cron (GET /api/cron/<name> with the CRON_SECRET) makes the work happen.
// Its own instance, on a copy of the e2e database, sending to a real SMTP server.
import type { APIRequestContext } from '@playwright/test';
import { expect, test } from '../support/request';
import type { Connection } from '@/db';
import { creds, expectProblem } from '../support/api';
import type { Instance } from '../support/instances';
import { instanceWithMail, waitFor, type MailingInstance, type TestSmtp } from '../support/mail';
import { consent, freshEmail, NEWSLETTER } from '../support/signups';

test.describe.configure({ mode: 'serial', timeout: 120_000 });

const SECRET = 'cron-secret-for-the-e2e-run-0123456789';
let smtp: TestSmtp;
let instance: Instance;
let database: Connection;
let mailing: MailingInstance;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  mailing = await instanceWithMail('cron', {
    JOBS: 'cron',
    CRON_SECRET: SECRET,
    // Were the timers on, the outbox would be drained five times a second.
    OUTBOX_DRAIN_INTERVAL_MS: '200',
  });
  ({ smtp, instance, database } = mailing);
});

test.afterAll(async () => {
  await mailing?.stop();
});

const cron = (request: APIRequestContext, name: string, secret?: string) =>
  request.get(`${instance.baseURL}/api/cron/${name}`, {
    headers: secret === undefined ? {} : { Authorization: `Bearer ${secret}` },
    failOnStatusCode: false,
  });

async function outboxStatus(email: string) {
  const { rows } = await database.execute({
    sql: `SELECT status FROM outbox_messages WHERE payload LIKE ? ORDER BY id`,
    args: [`%${email}%`],
  });
  return rows.map((r) => String(r.status));
}

test('with JOBS=cron a confirmation mail waits for the cron call, and goes out when it comes', async ({ request }) => {
  expect(instance.output()).toContain('[jobs] JOBS=cron: no background timers');
  const email = freshEmail('cron');
  const res = await request.post(`${instance.baseURL}/site/v1${NEWSLETTER}`, {
    headers: { Authorization: `Bearer ${creds().core}`, 'Content-Type': 'application/json' },
    data: JSON.stringify({ email, consent, source: 'footer' }),
  });
  expect(res.status(), await res.text()).toBe(202);
  expect(await outboxStatus(email)).toEqual(['pending']);

  // Another job's pass sends nothing; and across ten of the timers' intervals nothing leaves.
  const sweep = await cron(request, 'sweep', SECRET);
  expect(sweep.status()).toBe(200);
  expect(await sweep.json()).toMatchObject({ job: 'sweep', checkoutSessions: expect.any(Number), idempotencyKeys: expect.any(Number) });
  for (let i = 0; i < 10; i++) {
    await new Promise((r) => setTimeout(r, 200));
    expect(smtp.received.filter((m) => m.rcptTo.includes(email))).toHaveLength(0);
  }
  expect(await outboxStatus(email)).toEqual(['pending']);

  const drain = await cron(request, 'outbox', SECRET);
  expect(drain.status()).toBe(200);
  expect(drain.headers()['cache-control']).toBe('no-store');
  const summary = (await drain.json()) as { job: string; sent: number };
  expect(summary.job).toBe('outbox');
  expect(summary.sent).toBeGreaterThanOrEqual(1);
  await waitFor(() => smtp.received.find((m) => m.rcptTo.includes(email)), `the mail to ${email}`, 15_000);
  expect(await outboxStatus(email)).toEqual(['sent']);

  // A second call finds it sent and sends it no second time.
  expect((await cron(request, 'outbox', SECRET)).status()).toBe(200);
  expect(smtp.received.filter((m) => m.rcptTo.includes(email))).toHaveLength(1);
});

test('the cron routes refuse a missing or wrong secret (401), unknown jobs (404) and other methods (405)', async ({ request }) => {
  for (const secret of [undefined, '', 'wrong', `${SECRET}x`]) {
    const res = await cron(request, 'outbox', secret);
    const body = await expectProblem(res, 401, 'unauthorized');
    expect(body.detail).not.toContain(SECRET);
    expect(res.headers()['www-authenticate']).toBe('Bearer');
  }
  // Without the secret, an unknown job is not told apart from a known one.
  expect((await cron(request, 'no-such-job')).status()).toBe(401);
  await expectProblem(await cron(request, 'no-such-job', SECRET), 404, 'not_found');
  const post = await request.post(`${instance.baseURL}/api/cron/outbox`, {
    headers: { Authorization: `Bearer ${SECRET}` },
    failOnStatusCode: false,
  });
  await expectProblem(post, 405, 'method_not_allowed');
  expect(post.headers()['allow']).toBe('GET, HEAD');
});

test('without CRON_SECRET the cron routes do not exist', async ({ request }) => {
  // The shared e2e server has no CRON_SECRET.
  for (const path of ['/api/cron/outbox', '/api/cron/sweep', '/api/cron/nothing']) {
    const res = await request.get(path, { headers: { Authorization: 'Bearer anything-at-all-here' }, failOnStatusCode: false });
    await expectProblem(res, 404, 'not_found');
  }
});
