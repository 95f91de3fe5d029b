import { timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { checkoutSessions } from '@/db/schema';
import type { Database } from '@/db/client';
import { recordPaymentEvent, type EventResult } from './complete';

/**
 * The sandbox's "pay" and "cancel" buttons: what a real provider's hosted page and webhook
 * do, in one step, through the same recordPaymentEvent. The client token the sandbox gave
 * the shop for this payment is the proof (as a provider's client secret would be); the
 * event id is derived from the payment, so pressing "pay" twice completes once.
 */
export async function sandboxPaymentAction(
  database: Database,
  input: { sessionId: string; clientToken: string; action: 'pay' | 'cancel' },
  clock: { now?: number } = {},
): Promise<EventResult | null> {
  const [row] = await database
    .select({ payment: checkoutSessions.payment })
    .from(checkoutSessions)
    .where(eq(checkoutSessions.id, input.sessionId));
  const payment = row?.payment;
  if (!payment || payment.provider !== 'sandbox' || !sameToken(payment.clientToken, input.clientToken)) return null;
  return recordPaymentEvent(
    database,
    {
      provider: 'sandbox',
      eventId: `${payment.reference}:${input.action}`,
      type: input.action === 'pay' ? 'sandbox.payment_succeeded' : 'sandbox.payment_cancelled',
      kind: input.action === 'pay' ? 'succeeded' : 'failed',
      sessionId: input.sessionId,
      reference: payment.reference,
      amount: payment.amount,
    },
    clock,
  );
}

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
