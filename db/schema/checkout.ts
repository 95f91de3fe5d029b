import { sql } from 'drizzle-orm';
import { sqliteTable, text, integer, primaryKey, index } from 'drizzle-orm/sqlite-core';
import { sites, credentials } from './sites';

export type StoredAddress = {
  firstName: string;
  lastName: string;
  line1: string;
  line2?: string;
  postalCode: string;
  city: string;
  region?: string;
  country: string;
};
export type StoredDeliveryOption = {
  id: string;
  kind: 'delivery' | 'pickup';
  title: string;
  carrier: string;
  amount: number;
  minDays: number;
  maxDays: number;
  pickupPointId?: string;
};
export type StoredPayment = {
  provider: string;
  reference: string;
  clientToken: string;
  amount: number;
  expiresAt: number;
  /** Where the shopper completes the payment (a provider's hosted page); none for the sandbox. */
  redirectUrl?: string;
};

/** A session nobody has paid for: what the sweep may delete once it is long expired. */
export const SWEEPABLE_SESSION = "status IN ('open', 'expired') AND (payment IS NULL OR payment = 'null')";

export const checkoutSessions = sqliteTable(
  'checkout_sessions',
  {
    id: text().primaryKey(),
    siteId: text()
      .notNull()
      .references(() => sites.id),
    credentialId: text()
      .notNull()
      .references(() => credentials.id),
    status: text({ enum: ['open', 'payment_pending', 'completed', 'expired'] }).notNull(),
    marketId: text().notNull(),
    locale: text().notNull(),
    currency: text().notNull(),
    /** Where the shopper said the order goes (change-country); the shipping address's country wins once set. */
    country: text(),
    email: text(),
    phone: text(),
    shippingAddress: text({ mode: 'json' }).$type<StoredAddress>(),
    billingAddress: text({ mode: 'json' }).$type<StoredAddress>(),
    deliveryOption: text({ mode: 'json' }).$type<StoredDeliveryOption>(),
    payment: text({ mode: 'json' }).$type<StoredPayment>(),
    /** Minor units. */
    subtotal: integer().notNull(),
    shipping: integer(),
    tax: integer().notNull(),
    total: integer().notNull(),
    /** Bumped on every change; the ETag is derived from it. */
    revision: integer().notNull().default(1),
    expiresAt: integer().notNull(),
    createdAt: integer().notNull(),
    updatedAt: integer().notNull(),
  },
  (t) => [
    // The sweep's candidates (lib/commerce/checkout/sweep.ts) by expiry, and only sessions it
    // may delete: without it every sweep read the whole table on the request thread, and the
    // table only grows with the shop. The sweep must state this WHERE in the same literal
    // words (SWEEPABLE_SESSION) for SQLite to use the index.
    index('checkout_sessions_sweep_idx').on(t.expiresAt).where(sql.raw(SWEEPABLE_SESSION)),
  ],
);
// No index on (site_id, id): a session is found by its primary key, and the Site is checked
// on that one row. Every index is one more B-tree each creation writes; the sweep's one
// leaves a session when it is paid for.

export const checkoutSessionLines = sqliteTable(
  'checkout_session_lines',
  {
    sessionId: text()
      .notNull()
      .references(() => checkoutSessions.id, { onDelete: 'cascade' }),
    position: integer().notNull(),
    variantId: text().notNull(),
    productHandle: text().notNull(),
    title: text().notNull(),
    quantity: integer().notNull(),
    unitPrice: integer().notNull(),
    total: integer().notNull(),
    /** The bundle this line was expanded from (null for a plain line): change-country re-allocates the bundle's price per market. */
    bundleId: text(),
    /** How many of that bundle were bought; quantity = the item's quantity in the bundle × this. */
    bundleQuantity: integer(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.position] })],
);

/** Delivery rates per market, seeded; the built-in shipping table. */
export const shippingRates = sqliteTable(
  'shipping_rates',
  {
    id: text().primaryKey(),
    siteId: text()
      .notNull()
      .references(() => sites.id),
    marketId: text().notNull(),
    kind: text({ enum: ['delivery', 'pickup'] }).notNull(),
    title: text().notNull(),
    carrier: text().notNull(),
    amount: integer().notNull(),
    minDays: integer().notNull(),
    maxDays: integer().notNull(),
    position: integer().notNull(),
  },
  (t) => [
    // delivery options for a session's market
    index('shipping_rates_market_idx').on(t.siteId, t.marketId, t.position),
  ],
);

/** The built-in address source (swappable for a provider). */
export const addressBook = sqliteTable(
  'address_book',
  {
    id: text().primaryKey(),
    country: text().notNull(),
    street: text().notNull(),
    /** lower-cased street for prefix search */
    streetKey: text().notNull(),
    postalCode: text().notNull(),
    city: text().notNull(),
    region: text(),
  },
  (t) => [
    // address suggestions: prefix search on street within a country
    index('address_book_country_street_idx').on(t.country, t.streetKey),
    // address suggestions: prefix search on postal code within a country
    index('address_book_country_postal_idx').on(t.country, t.postalCode),
  ],
);

export const pickupPoints = sqliteTable(
  'pickup_points',
  {
    id: text().primaryKey(),
    country: text().notNull(),
    carrier: text().notNull(),
    name: text().notNull(),
    line1: text().notNull(),
    postalCode: text().notNull(),
    city: text().notNull(),
    /** JSON: e.g. { "mon-fri": "08-20", "sat": "10-16", "sun": "closed" } */
    openingHours: text({ mode: 'json' }).$type<Record<string, string>>().notNull(),
  },
  (t) => [
    // pickup points near a postal code within a country
    index('pickup_points_country_postal_idx').on(t.country, t.postalCode),
  ],
);
