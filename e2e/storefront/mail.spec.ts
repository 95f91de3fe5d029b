// The mails a shopper gets, followed in Chromium: a server instance of its own (on a copy
// of the e2e database, so a restock here changes nothing the other tests see) sends through
// a real SMTP server started by this test.
import type { Connection } from '@/db';
import { creds } from '../support/api';
import { freePort, type Instance } from '../support/instances';
import { header, instanceWithMail, linkTo, part, target, waitFor, type MailingInstance, type TestSmtp } from '../support/mail';
import { consent, freshEmail } from '../support/signups';
import { expect, test, expectAccessible, shot } from './helpers';

test.describe.configure({ mode: 'serial', timeout: 120_000 });

let smtp: TestSmtp;
let instance: Instance;
let database: Connection;
let mailing: MailingInstance;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  mailing = await instanceWithMail(
    'mail',
    {
      SITE_API_CREDENTIAL: creds().storefront,
      SITE_API_BASE_URL: origin,
      STOREFRONT_ORIGIN: origin,
      OUTBOX_DRAIN_INTERVAL_MS: '300',
      // One proxy in front: a browser context names its shopper with X-Forwarded-For.
      TRUSTED_PROXY_HOPS: '1',
      SIGNUP_MAILS_PER_SHOPPER: '4',
    },
    { port },
  );
  ({ smtp, instance, database } = mailing);
  // The copy starts with no mail counted (the shared server's shoppers are not this one's).
  await database.execute("DELETE FROM rate_limit_counters WHERE bucket LIKE 'mail:%'");
});

test.afterAll(async () => {
  await mailing?.stop();
});

/** The mails the instance has sent to `email` so far, once there are at least `count`. */
function mailsTo(email: string, count = 1) {
  return waitFor(
    () => {
      const mails = smtp.received.filter((r) => r.rcptTo.includes(email));
      return mails.length >= count ? mails.map((m) => m.raw) : null;
    },
    `${count} mail(s) to ${email}`,
    30_000,
  );
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

test('newsletter: the footer signup mails a link that confirms, and the unsubscribe page ends it with its button', async ({
  page,
  context,
}, testInfo) => {
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
  await expect(
    footer.getByText('Almost done — we’re sending you an e-mail. Confirm your subscription with the link in it within 7 days.'),
  ).toBeVisible();

  const [mail] = await mailsTo(email);
  expect(header(mail!, 'Subject')).toBe('Confirm your subscription to the Nordlys Home & Goods newsletter');
  expect(header(mail!, 'From')).toContain('shop@nordlys.example');
  // commercial mail says who sends it and where they are (the Site's settings), in the mail's language
  expect(part(mail!, 'text/plain')).toContain('Nordlys Home & Goods AB, Exempelgatan 1, 111 22 Stockholm, Sweden');
  expect(part(mail!, 'text/html')).toContain('Nordlys Home &amp; Goods AB, Exempelgatan 1, 111 22 Stockholm, Sweden');

  // Opening the link (or a mail scanner's GET or HEAD of it) confirms nothing: the page's button does.
  const link = linkTo(mail!, '/subscriptions/confirm');
  for (const method of ['GET', 'HEAD']) {
    const res = await page.request.fetch(link, { method });
    expect(res.status(), method).toBe(200);
    const direct = await page.request.fetch(target(link).href, { method });
    expect(direct.status(), method).toBe(200);
  }
  await page.goto(link);
  expect(new URL(page.url()).pathname).toBe('/subscriptions/confirm');
  await expect(page.getByText('Press the button to confirm your subscription.')).toBeVisible();
  expect(await row('SELECT status FROM newsletter_subscriptions WHERE email = ?', [email])).toMatchObject({
    status: 'pending_confirmation',
  });
  expect(
    await row('SELECT c.confirmed_at FROM newsletter_subscriptions n JOIN consents c ON c.id = n.consent_id WHERE n.email = ?', [email]),
  ).toMatchObject({ confirmed_at: null });
  await shot(page, testInfo, 'subscription-confirm-page');
  await expectAccessible(page, testInfo, 'subscription-confirm-page');
  await page.getByRole('button', { name: 'Confirm subscription' }).click();
  await expect(page.getByText('Thank you — your newsletter subscription is confirmed.')).toBeVisible();
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
  expect(
    await row('SELECT n.status, c.withdrawn_via FROM newsletter_subscriptions n JOIN consents c ON c.id = n.consent_id WHERE n.email = ?', [
      email,
    ]),
  ).toMatchObject({ status: 'unsubscribed', withdrawn_via: 'page' });
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
  expect(await row('SELECT status FROM newsletter_subscriptions WHERE email = ?', [email])).toMatchObject({
    status: 'pending_confirmation',
  });

  // What a mail provider sends (RFC 8058): a form POST with List-Unsubscribe=One-Click.
  const post = await request.post(url, {
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    data: 'List-Unsubscribe=One-Click',
  });
  expect(post.status(), await post.text()).toBe(200);
  expect(
    await row('SELECT n.status, c.withdrawn_via FROM newsletter_subscriptions n JOIN consents c ON c.id = n.consent_id WHERE n.email = ?', [
      email,
    ]),
  ).toMatchObject({ status: 'unsubscribed', withdrawn_via: 'one_click' });
});

test('back in stock: a restock by UPDATE mails the confirmed subscriber once, in their language, with a link to the page in their market', async ({
  page,
  browser,
  request,
}) => {
  const variant = String(
    (await row(
      "SELECT v.id FROM product_variants v JOIN products p ON p.id = v.product_id JOIN sites s ON s.id = p.site_id WHERE s.handle = 'demo' AND p.handle = 'aurora-wool-throw' ORDER BY v.position LIMIT 1",
      [],
    ))!.id,
  );
  const confirmed = freshEmail('restock');
  const pending = freshEmail('restock-pending');
  await signUp(request, '/commerce/stock-subscriptions', { variantId: variant, email: confirmed, consent, locale: 'de-DE', market: 'de' });
  await signUp(request, '/commerce/stock-subscriptions', { variantId: variant, email: pending, consent, locale: 'en-SE' });

  const [confirmation] = await mailsTo(confirmed);
  expect(header(confirmation!, 'Subject')).toContain('Aurora Wolldecke');
  await page.goto(linkTo(confirmation!, '/subscriptions/confirm'));
  // The link opened the shop in the subscriber's language.
  await page.getByRole('button', { name: 'Abonnement bestätigen' }).click();
  await expect(page.getByText('Bestätigt. Wir schreiben Ihnen einmal, sobald es wieder vorrätig ist.')).toBeVisible();
  await mailsTo(pending);

  await database.execute({ sql: 'UPDATE inventory_levels SET quantity = 7 WHERE variant_id = ?', args: [variant] });
  const mails = await mailsTo(confirmed, 2);
  const news = mails[1]!;
  expect(header(news, 'Subject')).toMatch(/^Aurora Wolldecke .* ist wieder vorrätig$/);
  // The product as the subscriber will find it: picture, variant and the price in their market (EUR, written in German).
  const minor = Number((await row("SELECT amount FROM variant_prices WHERE variant_id = ? AND market_id = 'de'", [variant]))!.amount);
  const euros = new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' }).format(
    `${Math.trunc(minor / 100)}.${String(minor % 100).padStart(2, '0')}` as `${number}`,
  );
  const text = part(news, 'text/plain')!;
  const html = part(news, 'text/html')!;
  const lines = text.split(/\r?\n/);
  const at = lines.indexOf('Aurora Wolldecke');
  expect(lines.slice(at + 1, at + 3), text).toEqual([expect.stringMatching(/^(Grau|Ocker)$/), euros]);
  const picture = /<img src="([^"]+)" alt="([^"]+)"/.exec(html);
  expect(picture![1]).toMatch(new RegExp(`^${instance.baseURL}/products/[a-z-]+\\.svg$`));
  const image = await request.get(picture![1]!);
  expect(image.status()).toBe(200);
  expect(image.headers()['content-type']).toContain('image/svg+xml');
  // No label said twice (the footer used to read "Abmelden: Abmelden").
  expect(text).toContain('Sie möchten diese E-Mails nicht mehr? Abmelden: http');
  expect(html).not.toMatch(/Abmelden:\s*<a[^>]*>Abmelden/);
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
    async () =>
      (await row(
        "SELECT count(*) AS n FROM outbox_messages WHERE status = 'pending' AND channel = 'email' AND json_extract(payload, '$.email') IN (?, ?)",
        [confirmed, pending],
      ))!.n === 0,
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
  for (const query of ['', '?token=', '?token=short', '?token=not%20a%20token%21']) {
    const res = await page.goto(`${instance.baseURL}/subscriptions/confirm${query}`);
    expect(res?.status()).toBe(200);
    await expect(page.getByText(invalid)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Confirm subscription' })).toHaveCount(0);
  }
  // A well-formed token nobody issued: only its button's POST can find that out.
  await page.goto(`${instance.baseURL}/subscriptions/confirm?token=${'A'.repeat(43)}`);
  await page.getByRole('button', { name: 'Confirm subscription' }).click();
  await expect(page.getByText(invalid)).toBeVisible();
  await page.goto(`${instance.baseURL}/subscriptions/unsubscribe?token=${'B'.repeat(43)}`);
  await page.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(page.getByText(invalid)).toBeVisible();
});

test('without JavaScript the confirm and unsubscribe pages’ buttons still work (plain form POSTs with a real Origin)', async ({
  browser,
  request,
}) => {
  const email = freshEmail('nojs');
  await signUp(request, '/newsletter/subscriptions', { email, consent, locale: 'en-SE' });
  const [mail] = await mailsTo(email);
  const context = await browser.newContext({ javaScriptEnabled: false });
  try {
    const page = await context.newPage();
    await page.goto(linkTo(mail!, '/subscriptions/confirm'));
    expect(await row('SELECT status FROM newsletter_subscriptions WHERE email = ?', [email])).toMatchObject({
      status: 'pending_confirmation',
    });
    await page.getByRole('button', { name: 'Confirm subscription' }).click();
    await expect(page.getByText('Thank you — your newsletter subscription is confirmed.')).toBeVisible();
    expect(await row('SELECT status FROM newsletter_subscriptions WHERE email = ?', [email])).toMatchObject({ status: 'active' });
    // The unsubscribe page's button, the same way.
    await page.goto(linkTo(mail!, '/subscriptions/unsubscribe'));
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await expect(page.getByText('You’re unsubscribed from the newsletter. You won’t get it any more.')).toBeVisible();
    expect(await row('SELECT status FROM newsletter_subscriptions WHERE email = ?', [email])).toMatchObject({ status: 'unsubscribed' });
  } finally {
    await context.close();
  }
});

/** Every answer's status and body, and the headers a caller could tell them apart by. */
async function answerOf(res: import('@playwright/test').APIResponse) {
  const { 'content-type': type, 'cache-control': cache } = res.headers();
  return { status: res.status(), type, cache, body: await res.text() };
}

/** Waits until nothing queued to these addresses is still waiting, then answers what the SMTP sink got for them. */
async function deliveredTo(pattern: RegExp, expected: number) {
  await waitFor(() => smtp.received.filter((r) => r.rcptTo.some((a) => pattern.test(a))).length >= expected, `${expected} mail(s)`, 30_000);
  await waitFor(async () => {
    const pending = await database.execute("SELECT payload FROM outbox_messages WHERE status = 'pending'");
    return !pending.rows.some((r) => pattern.test(String(JSON.parse(String(r.payload)).email)));
  }, 'the outbox to drain');
  return smtp.received.filter((r) => r.rcptTo.some((a) => pattern.test(a)));
}

test('mail budget: 12 plus-addresses of one mailbox get 3 mails, and every answer is the same 202', async ({ request }) => {
  const box = freshEmail('bomb').split('@')[0]!;
  const answers = [];
  for (let i = 0; i < 12; i++) {
    const res = await request.post(`${instance.baseURL}/site/v1/newsletter/subscriptions`, {
      headers: { Authorization: `Bearer ${creds().core}`, 'Content-Type': 'application/json' },
      data: JSON.stringify({ email: `${i % 3 ? box : box.toUpperCase()}+${i}@Example.SE`, consent, locale: 'en-SE' }),
    });
    answers.push(await answerOf(res));
  }
  // Capped or not, a caller cannot tell: one answer, byte for byte.
  expect(answers[0]).toEqual({ status: 202, type: 'application/json; charset=utf-8', cache: 'no-store', body: '{"status":"accepted"}' });
  for (const answer of answers) expect(answer).toEqual(answers[0]);
  const pattern = new RegExp(`^${box}\\+\\d+@example\\.se$`);
  const mails = await deliveredTo(pattern, 3);
  expect(mails).toHaveLength(3);
  // Past the budget nothing was stored either (no subscription waiting for a mail that never comes).
  const stored = await database.execute({
    sql: 'SELECT count(*) AS n FROM newsletter_subscriptions WHERE email LIKE ?',
    args: [`${box}+%`],
  });
  expect(Number(stored.rows[0]!.n)).toBe(3);
});

test('mail budget: one exact address signed up for every variant gets 3 confirmation mails', async ({ request }) => {
  const variants = await database.execute(
    "SELECT v.id FROM product_variants v JOIN products p ON p.id = v.product_id JOIN sites s ON s.id = p.site_id WHERE s.handle = 'demo' AND p.status = 'published' ORDER BY v.id LIMIT 10",
  );
  expect(variants.rows.length).toBeGreaterThan(5);
  const email = freshEmail('variants');
  for (const v of variants.rows) {
    const res = await request.post(`${instance.baseURL}/site/v1/commerce/stock-subscriptions`, {
      headers: { Authorization: `Bearer ${creds().core}`, 'Content-Type': 'application/json' },
      data: JSON.stringify({ variantId: String(v.id), email, consent, locale: 'en-SE' }),
    });
    expect(await answerOf(res)).toEqual({
      status: 202,
      type: 'application/json; charset=utf-8',
      cache: 'no-store',
      body: '{"status":"accepted"}',
    });
  }
  expect(await deliveredTo(new RegExp(`^${email.replace(/\./g, '\\.')}$`), 3)).toHaveLength(3);
});

test('mail budget: the shop’s footer names its shopper, who gets 4 confirmations a day here, whatever the addresses', async ({
  browser,
}) => {
  const context = await browser.newContext({ extraHTTPHeaders: { 'X-Forwarded-For': '203.0.113.61' } });
  await context.addCookies([
    { name: 'market', value: 'se', url: instance.baseURL },
    { name: 'locale', value: 'en-SE', url: instance.baseURL },
  ]);
  const tag = freshEmail('visitor').split('@')[0]!;
  try {
    const page = await context.newPage();
    for (let i = 0; i < 6; i++) {
      await page.goto(`${instance.baseURL}/`);
      const footer = page.getByRole('contentinfo');
      await footer.getByLabel('E-mail address').fill(`${tag}.${i}@example.se`);
      await footer.getByRole('checkbox', { name: 'Yes, send me the newsletter by e-mail. I can unsubscribe at any time.' }).check();
      await footer.getByRole('button', { name: 'Subscribe' }).click();
      // The same words past the budget: the form tells no one which mails were held back.
      await expect(
        footer.getByText('Almost done — we’re sending you an e-mail. Confirm your subscription with the link in it within 7 days.'),
      ).toBeVisible();
    }
  } finally {
    await context.close();
  }
  const mails = await deliveredTo(new RegExp(`^${tag}\\.\\d@example\\.se$`), 4);
  expect(mails.map((m) => m.rcptTo[0]).sort()).toEqual([0, 1, 2, 3].map((i) => `${tag}.${i}@example.se`));
});
