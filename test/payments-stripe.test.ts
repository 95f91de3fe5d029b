import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { inventoryLevels, products, productVariants } from '@/db/schema';
import { authenticateCredential, createCredential, type SiteContext } from '@/lib/platform/auth/credentials';
import {
  createCheckoutSession,
  deliveryOptions,
  getCheckoutSession,
  prepareCheckoutPayment,
  stripePaymentEvent,
  stripePaymentProvider,
  updateCheckoutSession,
  verifyStripeEvent,
  type StripeSettings,
} from '@/lib/commerce/checkout';
import { recordPaymentEvent } from '@/lib/commerce/orders';
import { UpdateCheckoutSessionBody } from '@/lib/contract/checkout';
import {
  STRIPE_TEST_SECRET_KEY,
  STRIPE_TEST_WEBHOOK_SECRET,
  stripeEvent,
  stripeSignature,
  stripeStandIn,
  type StripeStandIn,
} from '../e2e/support/stripe';
import { freshDatabase } from './support/database';

let database: Database;
let demo: SiteContext;
let standIn: StripeStandIn;
let settings: StripeSettings;

beforeAll(async () => {
  ({ database } = await freshDatabase());
  demo = (await authenticateCredential(database, (await createCredential(database, { siteHandle: 'demo', scope: 'extended' })).token))!;
  standIn = await stripeStandIn();
  settings = { secretKey: STRIPE_TEST_SECRET_KEY, webhookSecret: STRIPE_TEST_WEBHOOK_SECRET, apiUrl: standIn.url };
});
afterAll(() => standIn.stop());

async function readySession(quantity: number) {
  const [mug] = await database
    .select({ id: productVariants.id })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(and(eq(products.siteId, demo.site.id), eq(products.handle, 'fjord-ceramic-mug'), eq(productVariants.title, 'Sand')))
    .orderBy(asc(productVariants.position));
  const session = await createCheckoutSession(
    database,
    demo,
    { lines: [{ variantId: mug!.id, quantity }], market: 'de' },
    { ttlSeconds: 86_400 },
  );
  const shippingAddress = UpdateCheckoutSessionBody.parse({
    shippingAddress: {
      firstName: 'Eva',
      lastName: 'Brandt',
      line1: 'Unter den Linden 1',
      postalCode: '10117',
      city: 'Berlin',
      country: 'DE',
    },
  }).shippingAddress!;
  await updateCheckoutSession(database, demo.site, session.id, { email: 'eva@example.com', shippingAddress }, {});
  await deliveryOptions(database, demo.site, session.id, { select: 'ship_de_standard' });
  return { sessionId: session.id, variantId: mug!.id };
}

describe('the Stripe adapter, against a local stand-in', () => {
  it("creates a hosted Checkout for the session's total, with its idempotency key and metadata, and answers its URL", async () => {
    const { sessionId } = await readySession(1);
    const provider = stripePaymentProvider(settings);
    const { session, payment } = await prepareCheckoutPayment(
      database,
      demo.site,
      sessionId,
      {},
      { provider, origin: 'https://shop.example' },
    );
    expect(payment).toMatchObject({ provider: 'stripe', amount: session.total });
    expect(payment.reference).toMatch(/^cs_test_/);
    expect(payment.redirectUrl).toBe(`${standIn.url}/c/pay/${payment.reference}`);
    const call = standIn.calls.at(-1)!;
    expect(call.authorization).toBe(`Bearer ${STRIPE_TEST_SECRET_KEY}`);
    expect(call.idempotencyKey).toBe(`${sessionId}:r${session.revision - 1}`);
    expect(call.form.get('mode')).toBe('payment');
    expect(call.form.get('line_items[0][price_data][unit_amount]')).toBe(String(session.total));
    expect(call.form.get('line_items[0][price_data][currency]')).toBe('eur');
    expect(call.form.get('metadata[checkout_session_id]')).toBe(sessionId);
    expect(call.form.get('payment_intent_data[metadata][checkout_session_id]')).toBe(sessionId);
    expect(call.form.get('client_reference_id')).toBe(sessionId);
    expect(call.form.get('customer_email')).toBe('eva@example.com');
    expect(call.form.get('locale')).toBe('de');
    expect(call.form.get('success_url')).toBe(`https://shop.example/checkout/${sessionId}/confirmation`);
    expect(call.form.get('cancel_url')).toBe(`https://shop.example/checkout/${sessionId}/confirmation?payment=cancelled`);
  });

  it('completes through a signed checkout.session.completed; a bad signature is refused, a repeat changes nothing', async () => {
    const { sessionId, variantId } = await readySession(2);
    await database.update(inventoryLevels).set({ quantity: 10 }).where(eq(inventoryLevels.variantId, variantId));
    const { payment } = await prepareCheckoutPayment(database, demo.site, sessionId, {}, { provider: stripePaymentProvider(settings) });
    const object = { ...standIn.sessions.get(payment.reference)!, status: 'complete', payment_status: 'paid' };
    const payload = JSON.stringify(stripeEvent('checkout.session.completed', object, 'evt_completed_1'));

    await expect(verifyStripeEvent(settings, payload, 'not-a-signature')).rejects.toThrow();
    await expect(verifyStripeEvent(settings, payload, stripeSignature(payload, 'whsec_someone_else'))).rejects.toThrow();
    await expect(verifyStripeEvent(settings, payload.replace('"paid"', '"unpaid"'), stripeSignature(payload))).rejects.toThrow();

    const event = stripePaymentEvent(await verifyStripeEvent(settings, payload, stripeSignature(payload)));
    expect(event).toMatchObject({
      provider: 'stripe',
      eventId: 'evt_completed_1',
      kind: 'succeeded',
      sessionId,
      reference: payment.reference,
    });
    const result = await recordPaymentEvent(database, event);
    expect(result.outcome).toBe('completed');
    expect((await getCheckoutSession(database, demo.site, sessionId)).status).toBe('completed');
    const [level] = await database
      .select({ q: inventoryLevels.quantity })
      .from(inventoryLevels)
      .where(eq(inventoryLevels.variantId, variantId));
    expect(level!.q).toBe(8);
    expect((await recordPaymentEvent(database, event)).outcome).toBe('duplicate');
  });

  it('an expired Checkout lets the shopper try again; an event that is not about a Checkout is recorded and ignored', async () => {
    const { sessionId } = await readySession(1);
    const { payment } = await prepareCheckoutPayment(database, demo.site, sessionId, {}, { provider: stripePaymentProvider(settings) });
    const expired = stripePaymentEvent(
      stripeEvent('checkout.session.expired', { ...standIn.sessions.get(payment.reference)!, status: 'expired' }) as never,
    );
    expect(expired.kind).toBe('failed');
    expect((await recordPaymentEvent(database, expired)).outcome).toBe('reopened');
    expect((await getCheckoutSession(database, demo.site, sessionId)).status).toBe('open');
    const other = stripePaymentEvent(stripeEvent('customer.created', { id: 'cus_1' }) as never);
    expect((await recordPaymentEvent(database, other)).outcome).toBe('ignored');
  });
});
