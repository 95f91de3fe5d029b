import { randomBytes } from 'node:crypto';
import type { StoredPayment } from '@/db/schema';
import type { PaymentMethod } from '@/lib/contract/checkout';
import type { Database } from '@/db/client';
import type { SiteContext } from '@/lib/platform/auth/credentials';
import { DomainError } from '@/lib/platform/errors';
import { newId } from '@/lib/platform/ids';
import { toMoney } from '../money';
import type { Clock } from './sessions';
import { assertOpen, transition } from './state';
import { busy, loadSession, saveSession, type LoadedSession } from './session-storage';

export type PaymentRequest = {
  /** Same key, same payment: a real provider dedupes retries with it. */
  idempotencyKey: string;
  sessionId: string;
  amount: number;
  currency: string;
  method: PaymentMethod;
  /** The payment must not outlive the session. */
  expiresAt: number;
  siteId: string;
  email: string | null;
  locale: string;
  /** What the provider shows the shopper as the purchase. */
  description: string;
  /** Where a hosted payment page sends the shopper back: paid, or not (absolute URLs). */
  returnUrl: string;
  cancelUrl: string;
};

/**
 * What a provider told us, in the provider-neutral shape every adapter maps its events to
 * (lib/commerce/orders records it). `succeeded`: the money was taken; `failed`: declined,
 * cancelled or expired at the provider, the shopper may try again; `other`: recorded only.
 */
export type PaymentEvent = {
  provider: string;
  eventId: string;
  type: string;
  kind: 'succeeded' | 'failed' | 'other';
  sessionId: string | null;
  reference: string | null;
  /** As charged, minor units, when the provider says. */
  amount?: number;
  currency?: string;
};

/** A payment provider adapter: prepares a payment the shopper then completes at the provider. */
export interface PaymentProvider {
  readonly name: string;
  preparePayment(request: PaymentRequest): Promise<StoredPayment>;
}

/**
 * The built-in provider: a SANDBOX. It moves no money and talks to nobody; it makes a
 * reference and a client token of the same shape a real provider would, so the whole
 * flow can be built and tested before a provider is chosen.
 */
export const sandboxPaymentProvider: PaymentProvider = {
  name: 'sandbox',
  async preparePayment(request) {
    return {
      provider: 'sandbox',
      reference: newId('pay_sandbox'),
      clientToken: `sandbox_ct_${randomBytes(24).toString('base64url')}`,
      amount: request.amount,
      expiresAt: request.expiresAt,
    };
  },
};

export type MissingField = 'email' | 'shippingAddress' | 'deliveryOption' | 'lines';

export function missingForPayment(session: LoadedSession): MissingField[] {
  const missing: MissingField[] = [];
  if (!session.email) missing.push('email');
  if (!session.shippingAddress) missing.push('shippingAddress');
  if (!session.deliveryOption) missing.push('deliveryOption');
  if (session.lines.length === 0) missing.push('lines');
  return missing;
}

/**
 * open → payment_pending with a payment from the provider, stored on the session; on a
 * payment_pending session answers the stored payment again. The provider is called
 * outside the write transaction (a real one is a network call) and the result is only
 * stored if the session has not changed meanwhile; otherwise the whole step is redone.
 */
export async function prepareCheckoutPayment(
  database: Database,
  site: SiteContext['site'],
  id: string,
  input: { method?: PaymentMethod },
  options: Clock & { provider?: PaymentProvider; origin?: string } = {},
): Promise<{ session: LoadedSession; payment: StoredPayment }> {
  const now = options.now ?? Date.now();
  const provider = options.provider ?? sandboxPaymentProvider;
  for (let attempt = 0; attempt < 4; attempt += 1) {
    const session = await loadSession(database, site.id, id, now);
    if (session.status === 'payment_pending' && session.payment) return { session, payment: session.payment };
    assertOpen(session.status);
    const missing = missingForPayment(session);
    if (missing.length > 0) {
      throw new DomainError('session_incomplete', `The session needs ${missing.join(', ')} before payment.`, { extensions: { missing } });
    }
    const payment = await provider.preparePayment({
      idempotencyKey: `${session.id}:r${session.revision}`,
      sessionId: session.id,
      amount: session.total,
      currency: session.currency,
      method: input.method ?? 'card',
      expiresAt: session.expiresAt,
      siteId: site.id,
      email: session.email,
      locale: session.locale,
      // "Shop · 2 × Mug" or "Shop · Mug + 2 more": one charge line for the whole session.
      description:
        `${site.name} · ${session.lines.length === 1 ? `${session.lines[0]!.quantity} × ${session.lines[0]!.title}` : `${session.lines[0]?.title ?? ''} + ${session.lines.length - 1}`}`.slice(
          0,
          200,
        ),
      ...returnUrls(site, session.id, options.origin),
    });
    const saved = await database.transaction((tx) =>
      saveSession(tx, session, { status: transition(session.status, 'prepare_payment'), payment }, undefined, now),
    );
    if (saved) return { session: saved, payment };
  }
  throw busy();
}

/** The session's own pages on the shop: the confirmation, which shows paid or not yet. */
function returnUrls(site: SiteContext['site'], sessionId: string, origin = 'http://localhost'): { returnUrl: string; cancelUrl: string } {
  const page = new URL(`${site.checkoutBaseUrl.replace(/\/+$/, '')}/${sessionId}/confirmation`, origin).toString();
  return { returnUrl: page, cancelUrl: `${page}?payment=cancelled` };
}

export function paymentView(payment: StoredPayment, currency: string) {
  return {
    provider: payment.provider,
    reference: payment.reference,
    clientToken: payment.clientToken,
    ...(payment.redirectUrl ? { redirectUrl: payment.redirectUrl } : {}),
    amount: toMoney(payment.amount, currency),
    expiresAt: new Date(payment.expiresAt).toISOString(),
  };
}
