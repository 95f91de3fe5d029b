// The mails a shopper gets, followed in Chromium: a server instance of its own (on a copy
// of the e2e database, so a restock here changes nothing the other tests see) sends through
// a real SMTP server started by this test.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@libsql/client';
import { creds } from '../support/api';
import { copyDatabase, freePort, type Instance, killInstance, mainDatabaseUrl, rawClient, startInstance } from '../support/instances';
import { header, linkTo, target, testSmtp, waitFor, type TestSmtp } from '../support/mail';
import { consent, freshEmail } from '../support/signups';
import { expect, test, expectAccessible, shot } from './helpers';

test.describe.configure({ mode: 'serial', timeout: 120_000 });

let smtp: TestSmtp;
let instance: Instance;
let database: Client;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  smtp = await testSmtp();
  await smtp.start();
  const copy = await copyDatabase(mainDatabaseUrl(), join(mkdtempSync(join(tmpdir(), 'sd-mail-e2e-')), 'site.db'));
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  instance = await startInstance(copy, {
    SITE_API_CREDENTIAL: creds().storefront,
    SITE_API_BASE_URL: origin,
    STOREFRONT_ORIGIN: origin,
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Nordlys Home & Goods <shop@nordlys.example>',
    OUTBOX_DRAIN_INTERVAL_MS: '300',
  }, 90_000, port);
  database = rawClient(copy);
});

test.afterAll(async () => {
  database?.close();
  if (instance) await killInstance(instance);
  await smtp?.stop();
});

/** The mails the instance has sent to `email` so far, once there are at least `count`. */
function mailsTo(email: string, count = 1) {
  return waitFor(() => {
    const mails = smtp.received.filter((r) => r.rcptTo.includes(email));
    return mails.length >= count ? mails.map((m) => m.raw) : null;
  }, `${count} mail(s) to ${email}`, 30_000);
}

async function row(sql: string, args: string[]) {
  return (await database.execute({ sql, args })).rows[0] as Record<string, unknown> | undefined;
}

async function signUp(request: import('@playwright/test').APIRequestContext, path: string, body: Record<string, unknown>) {
  const res = await request.post(`${instance.baseURL}/site/v1${path}`, {
    headers: { Authorization: `Bearer ${creds().core}`, 'Content-Type': 'application/json' },
    data: JSON.stringify(body),
  });
  expect(res.status(), await res.text()).toBe(202);
}

test('newsletter: the footer signup mails a link that confirms, and the unsubscribe page ends it with its button', async ({ page, context }, testInfo) => {
  await context.addCookies([
    { name: 'market', value: 'se', url: instance.baseURL },
    { name: 'locale', value: 'en-SE', url: instance.baseURL },
  ]);
  await page.goto(`${instance.baseURL}/`);
  const footer = page.getByRole('contentinfo');
  const email = freshEmail('footer');
  await footer.getByLabel('E-mail address').fill(email);
  await footer.getByRole('checkbox', { name: 'Yes, send me the newsletter by e-mail. I can unsubscribe at any time.' }).check();
  await footer.getByRole('button', { name: 'Subscribe' }).click();
  await expect(footer.getByText('Almost done — we’re sending you an e-mail. Confirm your subscription with the link in it within 7 days.')).toBeVisible();

  const [mail] = await mailsTo(email);
  expect(header(mail!, 'Subject')).toBe('Confirm your subscription to the Nordlys Home & Goods newsletter');
  expect(header(mail!, 'From')).toContain('shop@nordlys.example');

  await page.goto(linkTo(mail!, '/subscriptions/confirm'));
  await expect(page.getByText('Thank you — your newsletter subscription is confirmed.')).toBeVisible();
  expect(new URL(page.url()).pathname).toBe('/subscriptions/confirm');
  await shot(page, testInfo, 'subscription-confirmed');
  await expectAccessible(page, testInfo, 'subscription-confirmed');
  expect(await row('SELECT status FROM newsletter_subscriptions WHERE email = ?', [email])).toMatchObject({ status: 'active' });

  // Opening the unsubscribe link changes nothing (mail scanners open links): the button does.
  await page.goto(linkTo(mail!, '/subscriptions/unsubscribe'));
  await expect(page.getByRole('heading', { name: 'Unsubscribe' })).toBeVisible();
  expect(await row('SELECT status FROM newsletter_subscriptions WHERE email = ?', [email])).toMatchObject({ status: 'active' });
  await shot(page, testInfo, 'unsubscribe-page');
  await expectAccessible(page, testInfo, 'unsubscribe-page');
  await page.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(page.getByText('You’re unsubscribed from the newsletter. You won’t get it any more.')).toBeVisible();
  expect(await row(
    'SELECT n.status, c.withdrawn_via FROM newsletter_subscriptions n JOIN consents c ON c.id = n.consent_id WHERE n.email = ?', [email],
  )).toMatchObject({ status: 'unsubscribed', withdrawn_via: 'page' });
});

test('one-click: the List-Unsubscribe URL unsubscribes on POST and only shows the page on GET', async ({ request }) => {
  const email = freshEmail('oneclick');
  await signUp(request, '/newsletter/subscriptions', { email, consent, locale: 'en-SE' });
  const [mail] = await mailsTo(email);
  expect(header(mail!, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
  const url = /^<(.+)>$/.exec(header(mail!, 'List-Unsubscribe')!)![1]!;
  expect(url.startsWith(`${instance.baseURL}/subscriptions/one-click?token=`)).toBe(true);

  const get = await request.get(url, { maxRedirects: 0 });
  expect(get.status()).toBe(303);
  expect(get.headers()['location']).toMatch(/^\/subscriptions\/unsubscribe\?token=/);
  expect(await row('SELECT status FROM newsletter_subscriptions WHERE email = ?', [email])).toMatchObject({ status: 'pending_confirmation' });

  // What a mail provider sends (RFC 8058): a form POST with List-Unsubscribe=One-Click.
  const post = await request.post(url, { headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, data: 'List-Unsubscribe=One-Click' });
  expect(post.status(), await post.text()).toBe(200);
  expect(await row(
    'SELECT n.status, c.withdrawn_via FROM newsletter_subscriptions n JOIN consents c ON c.id = n.consent_id WHERE n.email = ?', [email],
  )).toMatchObject({ status: 'unsubscribed', withdrawn_via: 'one_click' });
});

test('back in stock: a restock by UPDATE mails the confirmed subscriber once, in their language, with a link to the page in their market', async ({ page, browser, request }) => {
  const variant = String((await row(
    "SELECT v.id FROM product_variants v JOIN products p ON p.id = v.product_id JOIN sites s ON s.id = p.site_id WHERE s.handle = 'demo' AND p.handle = 'aurora-wool-throw' ORDER BY v.position LIMIT 1", [],
  ))!.id);
  const confirmed = freshEmail('restock');
  const pending = freshEmail('restock-pending');
  await signUp(request, '/commerce/stock-subscriptions', { variantId: variant, email: confirmed, consent, locale: 'de-DE', market: 'de' });
  await signUp(request, '/commerce/stock-subscriptions', { variantId: variant, email: pending, consent, locale: 'en-SE' });

  const [confirmation] = await mailsTo(confirmed);
  expect(header(confirmation!, 'Subject')).toContain('Aurora Wolldecke');
  await page.goto(linkTo(confirmation!, '/subscriptions/confirm'));
  // The link opened the shop in the subscriber's language.
  await expect(page.getByText('Bestätigt. Wir schreiben Ihnen einmal, sobald es wieder vorrätig ist.')).toBeVisible();
  await mailsTo(pending);

  await database.execute({ sql: 'UPDATE inventory_levels SET quantity = 7 WHERE variant_id = ?', args: [variant] });
  const mails = await mailsTo(confirmed, 2);
  const news = mails[1]!;
  expect(header(news, 'Subject')).toMatch(/^Aurora Wolldecke .* ist wieder vorrätig$/);
  expect(await row('SELECT status FROM stock_subscriptions WHERE email = ?', [confirmed])).toMatchObject({ status: 'notified' });
  expect(await row('SELECT status FROM stock_subscriptions WHERE email = ?', [pending])).toMatchObject({ status: 'pending_confirmation' });

  // A fresh browser (no cookies of this shop) lands on the product in German, in the German market.
  const link = linkTo(news, '/products/aurora-wool-throw');
  expect(target(link).searchParams.get('variant')).toBe(variant);
  const fresh = await browser.newContext();
  try {
    const shopper = await fresh.newPage();
    await shopper.goto(link);
    await expect(shopper.getByRole('heading', { level: 1 })).toHaveText('Aurora Wolldecke');
    await expect(shopper.locator('html')).toHaveAttribute('lang', 'de-DE');
    await expect(shopper.getByTestId('availability')).toHaveText('Auf Lager');
  } finally {
    await fresh.close();
  }

  // Exactly one message each for the confirmed subscriber; the pending one got only its confirmation request.
  // (This test's messages only: tests running beside it on the same database queue mail of their own.)
  await waitFor(
    async () => (await row("SELECT count(*) AS n FROM outbox_messages WHERE status = 'pending' AND channel = 'email' AND json_extract(payload, '$.email') IN (?, ?)", [confirmed, pending]))!.n === 0,
    'the outbox to drain',
  );
  expect(smtp.received.filter((r) => r.rcptTo.includes(confirmed))).toHaveLength(2);
  expect(smtp.received.filter((r) => r.rcptTo.includes(pending))).toHaveLength(1);
});

test('a link that is broken, unknown or cut short says so in words, and changes nothing', async ({ page, context }) => {
  await context.addCookies([
    { name: 'market', value: 'se', url: instance.baseURL },
    { name: 'locale', value: 'en-SE', url: instance.baseURL },
  ]);
  const invalid = 'This link doesn’t work. Please open it straight from the e-mail, or copy the whole link.';
  for (const query of ['', '?token=', '?token=short', `?token=${'A'.repeat(43)}`]) {
    const res = await page.goto(`${instance.baseURL}/subscriptions/confirm${query}`);
    expect(res?.status()).toBe(200);
    await expect(page.getByText(invalid)).toBeVisible();
  }
  await page.goto(`${instance.baseURL}/subscriptions/unsubscribe?token=${'B'.repeat(43)}`);
  await page.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(page.getByText(invalid)).toBeVisible();
});
