import type Stripe from 'stripe';
import type { PaymentEvent, PaymentProvider } from './payment';

export type StripeSettings = {
  secretKey: string;
  webhookSecret: string;
  /** Another API origin than Stripe's (a local stand-in in the tests): `http://127.0.0.1:12111`. */
  apiUrl?: string;
};

/** Stripe's hosted checkout must expire between 30 minutes and 24 hours after it is made. */
const MIN_EXPIRY_S = 31 * 60;
const MAX_EXPIRY_S = 23 * 3600 + 55 * 60;

/**
 * The SDK is loaded on first use: it is ~1.5 MB of code, bundled into every route that
 * reaches checkout, and a shop on the sandbox never needs it (it held memory in every
 * process; scripts/bench/HISTORY.md).
 */
export async function stripeClient(settings: StripeSettings): Promise<Stripe> {
  const api = settings.apiUrl ? new URL(settings.apiUrl) : null;
  const { default: StripeSdk } = await import('stripe');
  return new StripeSdk(settings.secretKey, {
    ...(api
      ? {
          host: api.hostname,
          port: api.port || (api.protocol === 'http:' ? 80 : 443),
          protocol: api.protocol === 'http:' ? 'http' : 'https',
        }
      : {}),
    // The SDK retries a failed request with the same idempotency key; a prepare-payment
    // that still fails answers 503 and the shop's own retry goes through the same key.
    maxNetworkRetries: 2,
    timeout: 15_000,
    appInfo: { name: 'site-delivery' },
  });
}

/**
 * Stripe through its hosted Checkout: one Checkout Session per payment attempt of a
 * checkout session, for the session's total (items, delivery and tax as priced here, so
 * Stripe charges exactly what the shopper saw), with the attempt's idempotency key (a retry
 * gets the same Checkout Session back) and our session id in its metadata, which every
 * webhook event about it carries back.
 */
export function stripePaymentProvider(settings: StripeSettings): PaymentProvider {
  let client: Promise<Stripe> | undefined;
  return {
    name: 'stripe',
    async preparePayment(request) {
      const now = Math.floor(Date.now() / 1000);
      const expiresAt = Math.min(now + MAX_EXPIRY_S, Math.max(now + MIN_EXPIRY_S, Math.floor(request.expiresAt / 1000)));
      const metadata = { checkout_session_id: request.sessionId, site_id: request.siteId };
      const stripe = await (client ??= stripeClient(settings));
      const created = await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          client_reference_id: request.sessionId,
          ...(request.email ? { customer_email: request.email } : {}),
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: request.currency.toLowerCase(),
                unit_amount: request.amount,
                product_data: { name: request.description },
              },
            },
          ],
          ...(request.method === 'card' ? { payment_method_types: ['card'] } : {}),
          metadata,
          payment_intent_data: { metadata },
          success_url: request.returnUrl,
          cancel_url: request.cancelUrl,
          expires_at: expiresAt,
          locale: stripeLocale(request.locale),
        },
        { idempotencyKey: request.idempotencyKey },
      );
      if (!created.url) throw new Error('Stripe answered a Checkout Session without a URL.');
      return {
        provider: 'stripe',
        reference: created.id,
        clientToken: created.id,
        redirectUrl: created.url,
        amount: created.amount_total ?? request.amount,
        expiresAt: Math.min(request.expiresAt, (created.expires_at ?? expiresAt) * 1000),
      };
    },
  };
}

/** Stripe's names for the storefront's three languages; anything else Stripe picks itself. */
function stripeLocale(locale: string): 'sv' | 'de' | 'en' | 'auto' {
  const lang = locale.toLowerCase().split('-')[0];
  return lang === 'sv' || lang === 'de' || lang === 'en' ? lang : 'auto';
}

/** The signature checked (throws Stripe's verification error otherwise), the event parsed. */
export async function verifyStripeEvent(settings: StripeSettings, payload: string, signature: string | null): Promise<Stripe.Event> {
  return (await stripeClient(settings)).webhooks.constructEvent(payload, signature ?? '', settings.webhookSecret);
}

/**
 * A Stripe event in the provider-neutral shape. Checkout Session events name our session in
 * their metadata; a card payment is `checkout.session.completed` with payment_status
 * `paid`, a delayed method (a bank debit) completes later by `async_payment_succeeded`.
 * A failed delayed payment and an expired Checkout Session let the shopper try again.
 */
export function stripePaymentEvent(event: Stripe.Event): PaymentEvent {
  const base = { provider: 'stripe', eventId: event.id, type: event.type };
  if (!event.type.startsWith('checkout.session.')) return { ...base, kind: 'other', sessionId: null, reference: null };
  const session = event.data.object as Stripe.Checkout.Session;
  const common = {
    ...base,
    sessionId: session.metadata?.checkout_session_id ?? session.client_reference_id ?? null,
    reference: session.id,
    ...(typeof session.amount_total === 'number' ? { amount: session.amount_total } : {}),
    ...(session.currency ? { currency: session.currency.toUpperCase() } : {}),
  };
  switch (event.type) {
    case 'checkout.session.completed':
      return {
        ...common,
        kind: session.payment_status === 'paid' || session.payment_status === 'no_payment_required' ? 'succeeded' : 'other',
      };
    case 'checkout.session.async_payment_succeeded':
      return { ...common, kind: 'succeeded' };
    case 'checkout.session.async_payment_failed':
    case 'checkout.session.expired':
      return { ...common, kind: 'failed' };
    default:
      return { ...common, kind: 'other' };
  }
}
