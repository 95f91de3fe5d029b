import 'server-only';
import { sandboxPaymentProvider, stripePaymentProvider, type PaymentProvider, type StripeSettings } from '@/lib/commerce/checkout';
import { env } from './env';
import { processSlot } from './process-state';

/** Stripe's settings when both keys are set; otherwise the shop runs on the sandbox. */
export function stripeSettings(): StripeSettings | null {
  const { STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_API_URL } = env();
  if (!STRIPE_SECRET_KEY || !STRIPE_WEBHOOK_SECRET) return null;
  return { secretKey: STRIPE_SECRET_KEY, webhookSecret: STRIPE_WEBHOOK_SECRET, apiUrl: STRIPE_API_URL };
}

const holder = processSlot<{ current?: { key: string; provider: PaymentProvider } }>('paymentProvider', () => ({}));

/** The one place that picks the payment provider (one Stripe client per process). */
export function paymentProvider(): PaymentProvider {
  const settings = stripeSettings();
  if (!settings) return sandboxPaymentProvider;
  const key = `${settings.secretKey}\n${settings.apiUrl ?? ''}`;
  if (holder.current?.key !== key) holder.current = { key, provider: stripePaymentProvider(settings) };
  return holder.current.provider;
}
