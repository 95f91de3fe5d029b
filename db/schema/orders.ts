import { sqliteTable, text, integer, primaryKey, index, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { sites } from './sites';
import type { StoredAddress, StoredDeliveryOption } from './checkout';

/**
 * An order: what a paid checkout session became, as it was charged. Written once, in the
 * transaction that completes the session (lib/commerce/orders/complete.ts); the session's
 * own rows may be swept later, the order stays.
 */
export const orders = sqliteTable(
  'orders',
  {
    id: text().primaryKey(),
    siteId: text()
      .notNull()
      .references(() => sites.id),
    /** 10001, 10002, … per Site: the number's digits. */
    seq: integer().notNull(),
    /** What shopper and merchant see (`NHG-10042`), fixed when the order is made. */
    number: text().notNull(),
    /** The checkout session it completed (kept as text: the session row may be swept). */
    sessionId: text().notNull(),
    provider: text().notNull(),
    paymentReference: text().notNull(),
    marketId: text().notNull(),
    locale: text().notNull(),
    currency: text().notNull(),
    email: text(),
    phone: text(),
    shippingAddress: text({ mode: 'json' }).$type<StoredAddress>(),
    billingAddress: text({ mode: 'json' }).$type<StoredAddress>(),
    deliveryOption: text({ mode: 'json' }).$type<StoredDeliveryOption>(),
    /** Minor units, as charged. */
    subtotal: integer().notNull(),
    shipping: integer(),
    tax: integer().notNull(),
    total: integer().notNull(),
    /** Paid for more of a stock-tracked variant than was left: the merchant must act (restock, or refund). */
    oversold: integer({ mode: 'boolean' }).notNull().default(false),
    createdAt: integer().notNull(),
  },
  (t) => [
    // the next number, and `npm run orders -- show <number>`
    uniqueIndex('orders_site_seq_uq').on(t.siteId, t.seq),
    // one order per session, whatever the provider says how often
    uniqueIndex('orders_session_uq').on(t.sessionId),
    // the merchant's list, newest first
    index('orders_site_created_idx').on(t.siteId, t.createdAt),
  ],
);

export const orderLines = sqliteTable(
  'order_lines',
  {
    orderId: text()
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    position: integer().notNull(),
    variantId: text().notNull(),
    sku: text(),
    productHandle: text().notNull(),
    title: text().notNull(),
    quantity: integer().notNull(),
    unitPrice: integer().notNull(),
    total: integer().notNull(),
    /** Of `quantity`, how many the stock did not cover (0 for all but an oversold line). */
    oversoldQuantity: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.orderId, t.position] })],
);

/**
 * Every event a payment provider sent (or the sandbox made), once: the provider's event id
 * is the key, so a repeated delivery is recognised and changes nothing.
 */
export const paymentEvents = sqliteTable(
  'payment_events',
  {
    provider: text().notNull(),
    eventId: text().notNull(),
    type: text().notNull(),
    /** What the event was about, when it named a session (unknown ones too: the merchant may look). */
    sessionId: text(),
    paymentReference: text(),
    /** What it did: completed, reopened, duplicate_order, unknown_session, expired_session, ignored, … */
    outcome: text().notNull(),
    orderId: text(),
    receivedAt: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.eventId] })],
);
