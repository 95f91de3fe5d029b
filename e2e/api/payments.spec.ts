// Payments with Stripe, end to end: a server instance of its own (on a copy of the e2e
// database) with STRIPE_* pointing at a local stand-in of Stripe's API, sending mail through
// a real SMTP server; the webhook gets events signed the way Stripe signs them.
import type { APIRequestContext } from '@playwright/test';
import { expect, test } from '../support/request';
import { CheckoutSession, PaymentPreparation } from '@/lib/contract/checkout';
import { Product } from '@/lib/contract/catalog';
import { auth, creds, V1 } from '../support/api';
import { header, instanceWithMail, part, waitFor, type MailingInstance } from '../support/mail';
import {
  STRIPE_TEST_SECRET_KEY,
  STRIPE_TEST_WEBHOOK_SECRET,
  sendStripeEvent,
  stripeEvent,
  stripeStandIn,
  type StripeStandIn,
} from '../support/stripe';

test.describe.configure({ mode: 'serial', timeout: 120_000 });

let mailing: MailingInstance;
let standIn: StripeStandIn;
let base: string;
let webhook: string;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  standIn = await stripeStandIn();
  mailing = await instanceWithMail('payments', {
    STRIPE_SECRET_KEY: STRIPE_TEST_SECRET_KEY,
    STRIPE_WEBHOOK_SECRET: STRIPE_TEST_WEBHOOK_SECRET,
    STRIPE_API_URL: standIn.url,
    MERCHANT_EMAIL: 'owner@nordlys.example',
    OUTBOX_DRAIN_INTERVAL_MS: '300',
  });
  base = mailing.instance.baseURL;
  webhook = `${base}/api/webhooks/stripe`;
  standIn.webhookUrl = webhook;
});

test.afterAll(async () => {
  await mailing?.stop();
  await standIn?.stop();
});

const call = (request: APIRequestContext, method: 'get' | 'post' | 'patch', path: string, data?: unknown) =>
  request[method](`${base}${V1}${path}`, {
    headers: auth(creds().extended, data === undefined ? {} : { 'Content-Type': 'application/json' }),
    ...(data === undefined ? {} : { data: JSON.stringify(data) }),
    failOnStatusCode: false,
  });

async function variantId(request: APIRequestContext, handle: string, title: string) {
  const res = await call(request, 'get', `/commerce/products/${handle}?market=de&locale=en-DE`);
  return Product.parse(await res.json()).variants.find((v) => v.title === title)!.id;
}

async function stockOf(variant: string): Promise<number> {
  return Number(
    (await mailing.database.execute({ sql: 'SELECT quantity FROM inventory_levels WHERE variant_id = ?', args: [variant] })).rows[0]!
      .quantity,
  );
}

/** A DE session with address and delivery, payment prepared at the stand-in. */
async function preparedSession(request: APIRequestContext, variant: string, quantity: number, email: string) {
  const created = await call(request, 'post', '/commerce/checkout-sessions', {
    market: 'de',
    email,
    lines: [{ variantId: variant, quantity }],
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = CheckoutSession.parse(await created.json());
  const address = { firstName: 'Eva', lastName: 'Brandt', line1: 'Unter den Linden 1', postalCode: '10117', city: 'Berlin', country: 'DE' };
  expect((await call(request, 'patch', `/commerce/checkout-sessions/${id}`, { shippingAddress: address })).status()).toBe(200);
  expect((await call(request, 'post', `/commerce/checkout-sessions/${id}/delivery-options`, { select: 'ship_de_standard' })).status()).toBe(
    200,
  );
  const prepared = await call(request, 'post', `/commerce/checkout-sessions/${id}/prepare-payment`, {});
  expect(prepared.status(), await prepared.text()).toBe(200);
  return { id, ...PaymentPreparation.parse(await prepared.json()) };
}

const paidEvent = (reference: string) =>
  stripeEvent('checkout.session.completed', { ...standIn.sessions.get(reference)!, status: 'complete', payment_status: 'paid' });

test('a Stripe checkout: prepared at Stripe, completed by its signed webhook, an order with lower stock and a receipt', async ({
  request,
}) => {
  const mug = await variantId(request, 'fjord-ceramic-mug', 'White');
  const before = await stockOf(mug);
  const { id, payment, session } = await preparedSession(request, mug, 2, 'eva.stripe@example.com');
  expect(payment.provider).toBe('stripe');
  expect(payment.redirectUrl).toBe(`${standIn.url}/c/pay/${payment.reference}`);
  const sent = standIn.calls.find((c) => c.form.get('metadata[checkout_session_id]') === id)!;
  expect(sent.form.get('line_items[0][price_data][unit_amount]')).toBe(session.totals.total.amount.replace('.', ''));
  expect(sent.idempotencyKey).toMatch(new RegExp(`^${id}:r\\d+$`));

  // A bad signature is 400 and changes nothing.
  const event = paidEvent(payment.reference);
  const forged = await sendStripeEvent(webhook, event, 'whsec_not_the_secret_at_all');
  expect(forged.status).toBe(400);
  expect(JSON.parse(forged.body)).toMatchObject({ code: 'invalid_signature' });
  expect(CheckoutSession.parse(await (await call(request, 'get', `/commerce/checkout-sessions/${id}`)).json()).status).toBe(
    'payment_pending',
  );

  const delivered = await sendStripeEvent(webhook, event);
  expect(delivered.status, delivered.body).toBe(200);
  const { order } = JSON.parse(delivered.body) as { order: string };
  expect(order).toMatch(/^NHG-\d{5}$/);
  // The same event again (Stripe retries): 200, nothing twice.
  const again = await sendStripeEvent(webhook, event);
  expect(JSON.parse(again.body)).toMatchObject({ outcome: 'duplicate' });

  const read = CheckoutSession.parse(await (await call(request, 'get', `/commerce/checkout-sessions/${id}`)).json());
  expect(read).toMatchObject({ status: 'completed', order: { number: order } });
  expect(await stockOf(mug)).toBe(before - 2);
  const rows = await mailing.database.execute({ sql: 'SELECT count(*) AS n FROM orders WHERE session_id = ?', args: [id] });
  expect(Number(rows.rows[0]!.n)).toBe(1);

  // The receipt in German (the session's language) and the merchant's notice, through SMTP.
  const receipt = await waitFor(
    () => mailing.smtp.received.find((r) => r.rcptTo.includes('eva.stripe@example.com')),
    'the receipt',
    30_000,
  );
  expect(header(receipt.raw, 'Subject')).toBe(`Ihre Bestellung ${order} bei Nordlys Home & Goods`);
  expect(part(receipt.raw, 'text/plain')).toContain('Enthaltene MwSt.');
  const notice = await waitFor(
    () => mailing.smtp.received.find((r) => r.rcptTo.includes('owner@nordlys.example') && (header(r.raw, 'Subject') ?? '').includes(order)),
    'the notice',
    30_000,
  );
  expect(part(notice.raw, 'text/plain')).toContain('eva.stripe@example.com');
});

test('events for an unknown session are recorded and answered 200; an expired Checkout reopens the session', async ({ request }) => {
  const unknown = await sendStripeEvent(
    webhook,
    stripeEvent('checkout.session.completed', {
      id: 'cs_test_unknown',
      object: 'checkout.session',
      payment_status: 'paid',
      amount_total: 100,
      currency: 'eur',
      metadata: { checkout_session_id: 'cs_NoSuchSession0001' },
    }),
  );
  expect(unknown.status).toBe(200);
  expect(JSON.parse(unknown.body)).toMatchObject({ outcome: 'unknown_session' });
  const recorded = await mailing.database.execute("SELECT outcome FROM payment_events WHERE session_id = 'cs_NoSuchSession0001'");
  expect(recorded.rows[0]?.outcome).toBe('unknown_session');

  const mug = await variantId(request, 'fjord-ceramic-mug', 'White');
  const { id, payment } = await preparedSession(request, mug, 1, 'retry@example.com');
  const expired = await sendStripeEvent(
    webhook,
    stripeEvent('checkout.session.expired', { ...standIn.sessions.get(payment.reference)!, status: 'expired' }),
  );
  expect(JSON.parse(expired.body)).toMatchObject({ outcome: 'reopened' });
  expect(CheckoutSession.parse(await (await call(request, 'get', `/commerce/checkout-sessions/${id}`)).json()).status).toBe('open');
  // The shopper tries again: a new Checkout at Stripe, which completes.
  const retry = PaymentPreparation.parse(
    await (await call(request, 'post', `/commerce/checkout-sessions/${id}/prepare-payment`, {})).json(),
  );
  expect(retry.payment.reference).not.toBe(payment.reference);
  // A late success for the first, abandoned Checkout does not complete the new attempt.
  const stale = await sendStripeEvent(webhook, paidEvent(payment.reference));
  expect(JSON.parse(stale.body)).toMatchObject({ outcome: 'payment_mismatch' });
  expect(JSON.parse((await sendStripeEvent(webhook, paidEvent(retry.payment.reference))).body)).toMatchObject({ outcome: 'completed' });
});

test('two shoppers pay for the last unit at once: one order takes it, the other is recorded and flagged oversold', async ({ request }) => {
  const sand = await variantId(request, 'fjord-ceramic-mug', 'Sand');
  await mailing.database.execute({ sql: "UPDATE inventory_levels SET quantity = 1, policy = 'deny' WHERE variant_id = ?", args: [sand] });
  const a = await preparedSession(request, sand, 1, 'first@example.com');
  const b = await preparedSession(request, sand, 1, 'second@example.com');
  const answers = await Promise.all([a, b].map((s) => sendStripeEvent(webhook, paidEvent(s.payment.reference))));
  expect(answers.map((r) => r.status)).toEqual([200, 200]);
  const numbers = answers.map((r) => (JSON.parse(r.body) as { order: string }).order);
  const rows = await mailing.database.execute({
    sql: `SELECT number, oversold FROM orders WHERE number IN (?, ?) ORDER BY number`,
    args: numbers,
  });
  expect(rows.rows.map((r) => Number(r.oversold)).sort()).toEqual([0, 1]);
  expect(await stockOf(sand)).toBe(0);
  // The merchant is told which one.
  const flagged = String(rows.rows.find((r) => Number(r.oversold) === 1)!.number);
  const notice = await waitFor(
    () => mailing.smtp.received.find((r) => (header(r.raw, 'Subject') ?? '').includes(`${flagged}:`)),
    'the oversold notice',
    30_000,
  );
  // In the shop's own language (the demo Site's is Swedish).
  expect(header(notice.raw, 'Subject')).toContain('ÖVERSÅLD');
});

test("the sandbox's endpoint: off while Stripe is configured; on a sandbox server it takes only its form with the right token", async ({
  request,
}) => {
  const form = { sessionId: 'cs_abcdefgh12345678', clientToken: 'sandbox_ct_guess', action: 'pay' };
  const off = await request.post(`${base}/api/payments/sandbox`, { form, failOnStatusCode: false });
  expect(off.status()).toBe(404);
  expect(await off.json()).toMatchObject({ code: 'not_found' });
  // The shared e2e server runs on the sandbox.
  const unknown = await request.post('/api/payments/sandbox', { form, failOnStatusCode: false });
  expect(unknown.status()).toBe(404);
  const json = await request.post('/api/payments/sandbox', { data: form, failOnStatusCode: false });
  expect(json.status()).toBe(415);
  const bad = await request.post('/api/payments/sandbox', { form: { ...form, action: 'refund' }, failOnStatusCode: false });
  expect(bad.status()).toBe(422);
  expect((await request.get('/api/payments/sandbox', { failOnStatusCode: false })).status()).toBe(405);
  // And the Stripe webhook does not exist where Stripe is not configured.
  expect((await request.post('/api/webhooks/stripe', { data: '{}', failOnStatusCode: false })).status()).toBe(404);
});
