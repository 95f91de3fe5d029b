import { and, eq, sql } from 'drizzle-orm';
import { checkoutSessions, inventoryLevels, orderLines, orders, paymentEvents, productVariants, sites } from '@/db/schema';
import type { Database, Tx } from '@/db/client';
import { newTimeOrderedId } from '@/lib/platform/ids';
import { enqueueOutboxMessage, OUTBOX_TOPICS } from '../signups/outbox';
import { findSession, saveSession, type LoadedSession } from '../checkout/session-storage';
import { isDue, transition } from '../checkout/state';
import type { PaymentEvent } from '../checkout/payment';
import { orderNumberPrefix } from './numbers';

export type EventOutcome =
  | 'completed' // the session became an order
  | 'reopened' // the payment failed: the session is open again
  | 'duplicate' // this event id was seen before: nothing changed
  | 'already_completed' // another event completed the session already
  | 'unknown_session'
  | 'expired_session'
  | 'payment_mismatch' // not the payment the session waits for (an older one, or another amount)
  | 'not_pending' // a failure for a session that is not waiting for payment
  | 'ignored';

export type CompletedOrder = { id: string; number: string; oversold: boolean };
export type EventResult = { outcome: EventOutcome; order?: CompletedOrder; sessionId: string | null };

/** 10001 is the first order of every Site: numbers look like a shop's, not like a counter. */
const FIRST_SEQ = 10001;

/**
 * The one way a payment event changes anything, for every provider and for the sandbox.
 *
 * One write transaction (libSQL's is BEGIN IMMEDIATE, so two events queue rather than
 * interleave — that is what decides which of two shoppers gets the last unit): record the
 * event once by its id (a repeat finds it and changes nothing), then for a success make the
 * order with its lines as charged, take the stock of `deny` variants down (through the
 * inventory table, so its triggers move availability and the catalog version as any stock
 * change does), move the session to `completed`, and queue the receipt and the merchant's
 * notice in the outbox. Stock that ran out meanwhile is taken to 0, never below, and the
 * order is flagged oversold: the money was taken, so the order is still recorded.
 */
export async function recordPaymentEvent(database: Database, event: PaymentEvent, clock: { now?: number } = {}): Promise<EventResult> {
  const now = clock.now ?? Date.now();
  return database.transaction(async (tx) => {
    const [fresh] = await tx
      .insert(paymentEvents)
      .values({
        provider: event.provider,
        eventId: event.eventId,
        type: event.type,
        sessionId: event.sessionId,
        paymentReference: event.reference,
        outcome: 'ignored',
        receivedAt: now,
      })
      .onConflictDoNothing()
      .returning({ eventId: paymentEvents.eventId });
    if (!fresh) return { outcome: 'duplicate' as const, sessionId: event.sessionId };

    const result = await apply(tx, event, now);
    await tx
      .update(paymentEvents)
      .set({ outcome: result.outcome, orderId: result.order?.id ?? null })
      .where(and(eq(paymentEvents.provider, event.provider), eq(paymentEvents.eventId, event.eventId)));
    return result;
  });
}

async function apply(tx: Tx, event: PaymentEvent, now: number): Promise<EventResult> {
  const sessionId = event.sessionId;
  if (event.kind === 'other') return { outcome: 'ignored', sessionId };
  const session = sessionId ? await sessionById(tx, sessionId) : null;
  if (!session) return { outcome: 'unknown_session', sessionId };
  if (session.status === 'completed') return { outcome: 'already_completed', sessionId };
  if (session.payment?.provider !== event.provider || (event.reference !== null && session.payment.reference !== event.reference)) {
    return { outcome: 'payment_mismatch', sessionId };
  }
  if (session.status === 'expired' || isDue(session, now)) return { outcome: 'expired_session', sessionId };
  if (session.status !== 'payment_pending') return { outcome: 'not_pending', sessionId };

  if (event.kind === 'failed') {
    // Back to open without the payment: the next prepare-payment asks the provider afresh.
    await saveSession(tx, session, { status: transition(session.status, 'payment_failed'), payment: null }, undefined, now);
    return { outcome: 'reopened', sessionId };
  }
  if (
    event.amount !== undefined &&
    (event.amount !== session.total || (event.currency ?? session.currency).toUpperCase() !== session.currency)
  ) {
    return { outcome: 'payment_mismatch', sessionId };
  }
  const order = await makeOrder(tx, session, now);
  const saved = await saveSession(tx, session, { status: transition(session.status, 'complete') }, undefined, now);
  // Cannot happen inside the immediate transaction; never leave an order beside an open session.
  if (!saved) throw new Error(`checkout session ${session.id} changed during its completion`);
  return { outcome: 'completed', order, sessionId };
}

/** A session by id alone: a provider's event names the session, not the Site. */
async function sessionById(tx: Tx, id: string): Promise<LoadedSession | null> {
  const [row] = await tx.select({ siteId: checkoutSessions.siteId }).from(checkoutSessions).where(eq(checkoutSessions.id, id));
  return row ? findSession(tx, row.siteId, id) : null;
}

async function makeOrder(tx: Tx, session: LoadedSession, now: number): Promise<CompletedOrder> {
  const variantIds = [...new Set(session.lines.map((l) => l.variantId))];
  const levels =
    variantIds.length === 0
      ? []
      : await tx
          .select({
            variantId: productVariants.id,
            sku: productVariants.sku,
            quantity: inventoryLevels.quantity,
            policy: inventoryLevels.policy,
          })
          .from(productVariants)
          .leftJoin(inventoryLevels, eq(inventoryLevels.variantId, productVariants.id))
          .where(sql`${productVariants.id} in (select value from json_each(${JSON.stringify(variantIds)}))`);
  const byVariant = new Map(levels.map((l) => [l.variantId, l]));

  // Lines in their order take what is left; a variant on two lines (a bundle and a plain line) shares it.
  const left = new Map(
    levels.filter((l) => l.policy === 'deny' && l.quantity !== null).map((l) => [l.variantId, Math.max(0, l.quantity!)]),
  );
  const taken = new Map<string, number>();
  const lines = session.lines.map((line) => {
    const available = left.get(line.variantId);
    if (available === undefined) return { line, short: 0 };
    const take = Math.min(available, line.quantity);
    left.set(line.variantId, available - take);
    taken.set(line.variantId, (taken.get(line.variantId) ?? 0) + take);
    return { line, short: line.quantity - take };
  });
  for (const [variantId, quantity] of taken) {
    if (quantity === 0) continue;
    await tx
      .update(inventoryLevels)
      .set({ quantity: sql`${inventoryLevels.quantity} - ${quantity}`, updatedAt: now })
      .where(eq(inventoryLevels.variantId, variantId));
  }

  const [site] = await tx.select({ name: sites.name, handle: sites.handle }).from(sites).where(eq(sites.id, session.siteId));
  const [last] = await tx
    .select({ seq: sql<number | null>`max(${orders.seq})` })
    .from(orders)
    .where(eq(orders.siteId, session.siteId));
  const seq = Math.max(FIRST_SEQ, (last?.seq ?? 0) + 1);
  const number = `${orderNumberPrefix(site?.name ?? '', site?.handle ?? '')}-${seq}`;
  const oversold = lines.some((l) => l.short > 0);
  const id = newTimeOrderedId('ord', now);
  const payment = session.payment!;
  await tx.insert(orders).values({
    id,
    siteId: session.siteId,
    seq,
    number,
    sessionId: session.id,
    provider: payment.provider,
    paymentReference: payment.reference,
    marketId: session.marketId,
    locale: session.locale,
    currency: session.currency,
    email: session.email,
    phone: session.phone,
    shippingAddress: session.shippingAddress,
    billingAddress: session.billingAddress,
    deliveryOption: session.deliveryOption,
    subtotal: session.subtotal,
    shipping: session.shipping,
    tax: session.tax,
    total: session.total,
    oversold,
    createdAt: now,
  });
  if (lines.length > 0) {
    await tx.insert(orderLines).values(
      lines.map(({ line, short }) => ({
        orderId: id,
        position: line.position,
        variantId: line.variantId,
        sku: byVariant.get(line.variantId)?.sku ?? null,
        productHandle: line.productHandle,
        title: line.title,
        quantity: line.quantity,
        unitPrice: line.unitPrice,
        total: line.total,
        oversoldQuantity: short,
      })),
    );
  }
  // The receipt and the merchant's notice exist if and only if the order does.
  const payload = { orderId: id, number, locale: session.locale };
  if (session.email) {
    await enqueueOutboxMessage(tx, { siteId: session.siteId, topic: OUTBOX_TOPICS.orderConfirmation, aggregateId: id, payload, at: now });
  }
  await enqueueOutboxMessage(tx, { siteId: session.siteId, topic: OUTBOX_TOPICS.orderNotice, aggregateId: id, payload, at: now });
  return { id, number, oversold };
}
