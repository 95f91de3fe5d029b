// A storefront checkout that ends in an order, in Chromium, on a server instance of its own
// (a copy of the e2e database, a real SMTP server): once with the built-in sandbox, whose
// demo page pays, and once with Stripe played by a local stand-in, whose "hosted page" sends
// the signed webhook and returns the shopper to the confirmation.
import type { BrowserContext, Page } from '@playwright/test';
import { creds } from '../support/api';
import { freePort } from '../support/instances';
import { header, instanceWithMail, part, waitFor, type MailingInstance } from '../support/mail';
import { STRIPE_TEST_SECRET_KEY, STRIPE_TEST_WEBHOOK_SECRET, stripeStandIn, type StripeStandIn } from '../support/stripe';
import { deliverHomeAndPay, expect, fillAddress, test } from './helpers';

test.describe.configure({ mode: 'serial', timeout: 150_000 });

async function shopInstance(name: string, env: Record<string, string> = {}): Promise<MailingInstance> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  return instanceWithMail(
    name,
    {
      SITE_API_CREDENTIAL: creds().storefront,
      SITE_API_BASE_URL: origin,
      STOREFRONT_ORIGIN: origin,
      OUTBOX_DRAIN_INTERVAL_MS: '300',
      MERCHANT_EMAIL: 'owner@nordlys.example',
      ...env,
    },
    { port },
  );
}

/** The Fjord mug in White into the cart, on to the checkout with an address and home delivery chosen. */
async function toPayment(page: Page, context: BrowserContext, base: string, market: string, locale: string) {
  await context.addCookies([
    { name: 'market', value: market, url: base },
    { name: 'locale', value: locale, url: base },
  ]);
  await page.goto(`${base}/products/fjord-ceramic-mug`);
  await page.getByRole('radio', { name: 'White' }).check();
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await expect(page.getByText('Added to your cart.')).toBeVisible();
  await page.goto(`${base}/cart`);
  await page.getByRole('button', { name: 'Checkout' }).click();
  await expect(page).toHaveURL(/\/checkout\/cs_[A-Za-z0-9]+$/);
  return page.url().split('/').pop()!;
}

async function stockOfWhiteMug(mailing: MailingInstance): Promise<number> {
  const rows = await mailing.database.execute(`SELECT il.quantity FROM inventory_levels il JOIN product_variants v ON v.id = il.variant_id
    JOIN products p ON p.id = v.product_id JOIN sites s ON s.id = p.site_id
    WHERE s.handle = 'demo' AND p.handle = 'fjord-ceramic-mug' AND v.title = 'White'`);
  return Number(rows.rows[0]!.quantity);
}

test.describe('with the sandbox', () => {
  let mailing: MailingInstance;
  test.beforeAll(async () => {
    test.setTimeout(150_000);
    mailing = await shopInstance('orders-sandbox');
  });
  test.afterAll(async () => mailing?.stop());

  test('the demo page pays; the order is recorded, the stock goes down, the receipt arrives', async ({ page, context }) => {
    const base = mailing.instance.baseURL;
    const before = await stockOfWhiteMug(mailing);
    const sessionId = await toPayment(page, context, base, 'se', 'en-SE');
    await fillAddress(page, { lastName: 'Svensson', line1: 'Storgatan 1', postalCode: '111 22', city: 'Stockholm' });
    await page.getByRole('button', { name: 'Save and continue' }).click();
    await expect(page.getByText('Saved.')).toBeVisible();
    await deliverHomeAndPay(page);
    const number = (await page.getByTestId('order-number').textContent())!;
    expect(number).toMatch(/^NHG-\d{5}$/);
    await expect(page.getByTestId('demo-payment')).toBeVisible();

    const order = await mailing.database.execute({ sql: 'SELECT number, provider FROM orders WHERE session_id = ?', args: [sessionId] });
    expect(order.rows[0]).toMatchObject({ number, provider: 'sandbox' });
    expect(await stockOfWhiteMug(mailing)).toBe(before - 1);
    const receipt = await waitFor(() => mailing.smtp.received.find((r) => r.rcptTo.includes('kim@example.com')), 'the receipt', 30_000);
    expect(header(receipt.raw, 'Subject')).toBe(`Your order ${number} at Nordlys Home & Goods`);
    const text = part(receipt.raw, 'text/plain')!;
    expect(text).toContain('1 × Fjord Ceramic Mug');
    expect(text).toContain('Including VAT');
    expect(text).toContain('Storgatan 1');
    expect(part(receipt.raw, 'text/html')).toMatch(/<img src="http:\/\/127\.0\.0\.1:\d+\/[^"]+"/);
    await waitFor(() => mailing.smtp.received.find((r) => r.rcptTo.includes('owner@nordlys.example')), 'the merchant notice', 30_000);
  });

  test('cancelling on the demo page goes back to the checkout, which can be paid again', async ({ page, context }) => {
    const base = mailing.instance.baseURL;
    const sessionId = await toPayment(page, context, base, 'se', 'en-SE');
    await fillAddress(page, { lastName: 'Svensson', line1: 'Storgatan 1', postalCode: '111 22', city: 'Stockholm' });
    await page.getByRole('button', { name: 'Save and continue' }).click();
    await expect(page.getByText('Saved.')).toBeVisible();
    const delivery = page.getByRole('region', { name: 'Delivery' });
    await delivery.getByRole('group', { name: 'Home delivery' }).getByRole('radio').first().check();
    await delivery.getByRole('button', { name: 'Use this delivery option' }).click();
    await expect(page.getByRole('complementary', { name: 'Order summary' }).getByText('Chosen in the next step')).toHaveCount(0);
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await page.getByRole('button', { name: 'Cancel and go back' }).click();
    await expect(page).toHaveURL(new RegExp(`/checkout/${sessionId}$`));
    await expect(page.getByRole('heading', { level: 1, name: 'Checkout' })).toBeVisible();
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await page.getByRole('button', { name: /^Pay / }).click();
    await expect(page.getByTestId('order-number')).toHaveText(/^NHG-\d{5}$/);
  });
});

test.describe('with Stripe (a local stand-in)', () => {
  let mailing: MailingInstance;
  let standIn: StripeStandIn;
  test.beforeAll(async () => {
    test.setTimeout(150_000);
    standIn = await stripeStandIn();
    mailing = await shopInstance('orders-stripe', {
      STRIPE_SECRET_KEY: STRIPE_TEST_SECRET_KEY,
      STRIPE_WEBHOOK_SECRET: STRIPE_TEST_WEBHOOK_SECRET,
      STRIPE_API_URL: standIn.url,
    });
    standIn.webhookUrl = `${mailing.instance.baseURL}/api/webhooks/stripe`;
  });
  test.afterAll(async () => {
    await mailing?.stop();
    await standIn?.stop();
  });

  test('"Continue to payment" goes to the hosted page; paid there, the shopper returns to the order', async ({ page, context }) => {
    const base = mailing.instance.baseURL;
    const before = await stockOfWhiteMug(mailing);
    // In English as written in Germany (en-DE): a euro session.
    const sessionId = await toPayment(page, context, base, 'de', 'en-DE');
    await fillAddress(page, { lastName: 'Brandt', line1: 'Unter den Linden 1', postalCode: '10117', city: 'Berlin' });
    await page.getByRole('button', { name: 'Save and continue' }).click();
    await expect(page.getByText('Saved.')).toBeVisible();
    const delivery = page.getByRole('region', { name: 'Delivery' });
    await delivery.getByRole('group', { name: 'Home delivery' }).getByRole('radio').first().check();
    await delivery.getByRole('button', { name: 'Use this delivery option' }).click();
    await expect(page.getByRole('complementary', { name: 'Order summary' }).getByText('Chosen in the next step')).toHaveCount(0);
    // The stand-in's page sends the signed completion and redirects back, as Stripe does.
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await expect(page).toHaveURL(new RegExp(`/checkout/${sessionId}/confirmation$`));
    await expect(page.getByRole('heading', { level: 1, name: 'Thank you for your order' })).toBeVisible();
    const number = (await page.getByTestId('order-number').textContent())!;
    expect(number).toMatch(/^NHG-\d{5}$/);
    await expect(page.getByTestId('demo-payment')).toHaveCount(0);
    await expect(page.getByRole('main')).not.toContainText(/stripe|cs_test_|cs_/i);
    expect(standIn.calls.at(-1)!.form.get('line_items[0][price_data][currency]')).toBe('eur');

    expect(await stockOfWhiteMug(mailing)).toBe(before - 1);
    const receipt = await waitFor(() => mailing.smtp.received.find((r) => r.rcptTo.includes('kim@example.com')), 'the receipt', 30_000);
    expect(header(receipt.raw, 'Subject')).toBe(`Your order ${number} at Nordlys Home & Goods`);
    expect(part(receipt.raw, 'text/plain')).toContain('Unter den Linden 1');
  });
});
