// A clean stop on SIGTERM: an instance of its own (on a copy of the e2e database, sending to a
// real SMTP server that takes its time to accept a mail) is told to stop while a request is
// in flight and a mail is being handed over. Both finish; nothing is lost or sent twice.
import { request as httpRequest } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { Client } from '@libsql/client';
import { creds, V1 } from '../support/api';
import { copyDatabase, mainDatabaseUrl, rawClient, startInstance, type Instance } from '../support/instances';
import { testSmtp, waitFor, type TestSmtp } from '../support/mail';
import { consent, freshEmail, NEWSLETTER, variantIds } from '../support/signups';

test.describe.configure({ mode: 'serial', timeout: 120_000 });

let smtp: TestSmtp;
let instance: Instance;
let database: Client;

test.beforeAll(async () => {
  // The relay answers a message 2 s after its data arrives: long enough to stop the server meanwhile.
  smtp = await testSmtp({ delayMs: 2_000 });
  await smtp.start();
  const copy = await copyDatabase(mainDatabaseUrl(), join(mkdtempSync(join(tmpdir(), 'sd-shutdown-e2e-')), 'site.db'));
  instance = await startInstance(copy, {
    NEXT_MANUAL_SIG_HANDLE: 'true',
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Nordlys Home & Goods <shop@nordlys.example>',
    PAGE_RENDER_AHEAD: 'off',
  });
  database = rawClient(copy);
});

test.afterAll(async () => {
  database?.close();
  if (instance && instance.child.exitCode === null) process.kill(-instance.child.pid!, 'SIGKILL');
  await smtp?.stop();
});

/** A checkout creation whose body is sent in two halves: `finish()` sends the rest. */
function slowCheckout(body: string) {
  let finish!: () => void;
  const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = httpRequest(`${instance.baseURL}${V1}/commerce/checkout-sessions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${creds().core}`, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), 'Idempotency-Key': `shutdown-${Date.now()}` },
    }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    const half = Math.floor(body.length / 2);
    req.write(body.slice(0, half));
    finish = () => req.end(body.slice(half));
  });
  return { answer, finish: () => finish() };
}

test('SIGTERM: a request in flight gets its answer, a mail being handed over is sent once and marked sent, the process exits 0', async ({ request }) => {
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
  // Another request answered after the slow one's headers went out: the server has them.
  expect((await fetch(`${instance.baseURL}/healthz`)).status).toBe(200);
  const exited = new Promise<number | null>((resolve) => instance.child.once('exit', (code) => resolve(code)));
  process.kill(instance.child.pid!, 'SIGTERM');
  await waitFor(() => (instance.output().includes('[server] SIGTERM') ? true : null), 'the server taking the signal', 10_000);
  // No new connections once it has.
  await expect(fetch(`${instance.baseURL}/healthz`)).rejects.toThrow();
  slow.finish();

  const answer = await slow.answer;
  expect(answer.status, answer.text).toBe(201);
  expect(await exited).toBe(0);
  expect(instance.output()).toMatch(/\[server\] stopped in \d+ ms/);
  expect(smtp.received.filter((m) => m.rcptTo.includes(email))).toHaveLength(1);
  const { rows } = await database.execute({ sql: 'SELECT status FROM outbox_messages WHERE payload LIKE ?', args: [`%${email}%`] });
  expect(rows.map((r) => String(r.status))).toEqual(['sent']);
});
