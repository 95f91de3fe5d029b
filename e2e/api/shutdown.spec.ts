// A clean stop on SIGTERM: an instance of its own (on a copy of the e2e database, sending to a
// real SMTP server that takes its time to accept a mail) is told to stop while a request is
// in flight and a mail is being handed over. Both finish; nothing is lost or sent twice.
import { request as httpRequest } from 'node:http';
import { expect, test } from '@playwright/test';
import type { Connection } from '@/db';
import { creds, V1 } from '../support/api';
import type { Instance } from '../support/instances';
import { instanceWithMail, waitFor, type MailingInstance, type TestSmtp } from '../support/mail';
import { consent, freshEmail, NEWSLETTER, variantIds } from '../support/signups';

test.describe.configure({ mode: 'serial', timeout: 120_000 });

let smtp: TestSmtp;
let instance: Instance;
let database: Connection;
let mailing: MailingInstance;

test.beforeAll(async () => {
  // The relay answers a message 2 s after its data arrives: long enough to stop the server meanwhile.
  mailing = await instanceWithMail('shutdown', { NEXT_MANUAL_SIG_HANDLE: 'true', PAGE_RENDER_AHEAD: 'off' }, { smtpDelayMs: 2_000 });
  ({ smtp, instance, database } = mailing);
});

test.afterAll(async () => {
  // The test stopped the server itself (SIGTERM); stop() kills what may be left.
  await mailing?.stop();
});

/**
 * A checkout creation whose body is sent in two halves: it asks `Expect: 100-continue`, so
 * `received` resolves once the server has taken the request (and answered 100 Continue);
 * `finish()` sends the rest of the body.
 */
function slowCheckout(body: string) {
  let finish!: () => void;
  let received!: () => void;
  const taken = new Promise<void>((resolve) => (received = resolve));
  const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = httpRequest(
      `${instance.baseURL}${V1}/commerce/checkout-sessions`,
      {
        method: 'POST',
        agent: false,
        headers: {
          Authorization: `Bearer ${creds().core}`,
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
          'Idempotency-Key': `shutdown-${Date.now()}`,
          Expect: '100-continue',
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    const half = Math.floor(body.length / 2);
    req.on('continue', () => {
      req.write(body.slice(0, half));
      received();
    });
    finish = () => req.end(body.slice(half));
  });
  return { answer, taken, finish: () => finish() };
}

/** A GET on a new connection (no kept-alive socket to reuse): its status, or the error's code. */
function onNewConnection(path: string): Promise<number | string> {
  return new Promise((resolve) => {
    const req = httpRequest(`${instance.baseURL}${path}`, { agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    req.end();
  });
}

test('SIGTERM: a request in flight gets its answer, a mail being handed over is sent once and marked sent, the process exits 0', async ({
  request,
}) => {
  const [variantId] = await variantIds(request, 'fjord-ceramic-mug');
  const email = freshEmail('shutdown');
  const signup = await request.post(`${instance.baseURL}${V1}${NEWSLETTER}`, {
    headers: { Authorization: `Bearer ${creds().core}`, 'Content-Type': 'application/json' },
    data: JSON.stringify({ email, consent, source: 'footer' }),
  });
  expect(signup.status()).toBe(202);
  // The drain has handed the mail over; the relay has not answered yet.
  await waitFor(() => smtp.arriving.find((to) => to.includes(email)), 'the mail arriving at the relay', 30_000);

  const slow = slowCheckout(JSON.stringify({ lines: [{ variantId, quantity: 1 }] }));
  await slow.taken;
  const exited = new Promise<number | null>((resolve) => instance.child.once('exit', (code) => resolve(code)));
  process.kill(instance.child.pid!, 'SIGTERM');
  await waitFor(
    () => (instance.output().includes('"msg":"SIGTERM: no new connections') ? true : null),
    'the server taking the signal',
    10_000,
  );
  // No new connection once it has.
  expect(await onNewConnection('/healthz')).toBe('ECONNREFUSED');
  slow.finish();

  const answer = await slow.answer;
  expect(answer.status, answer.text).toBe(201);
  expect(await exited).toBe(0);
  // The server's own JSON log line, as every other.
  expect(instance.output()).toMatch(/^\{"level":"info",.*"durationMs":\d+,"msg":"stopped"\}$/m);
  expect(smtp.received.filter((m) => m.rcptTo.includes(email))).toHaveLength(1);
  const { rows } = await database.execute({ sql: 'SELECT status FROM outbox_messages WHERE payload LIKE ?', args: [`%${email}%`] });
  expect(rows.map((r) => String(r.status))).toEqual(['sent']);
});
