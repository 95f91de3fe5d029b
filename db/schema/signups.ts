import { sqliteTable, text, integer, index, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { sites, credentials, notificationFlows } from './sites';
import { productVariants } from './catalog';

/** A consent as given: its own record, never reused for another purpose. */
export const consents = sqliteTable(
  'consents',
  {
    id: text().primaryKey(),
    siteId: text()
      .notNull()
      .references(() => sites.id),
    purpose: text({ enum: ['stock_notification', 'newsletter'] }).notNull(),
    email: text().notNull(),
    text: text().notNull(),
    textVersion: text().notNull(),
    /** sha256 of the exact text, hex. */
    textHash: text().notNull(),
    locale: text(),
    source: text(),
    credentialId: text()
      .notNull()
      .references(() => credentials.id),
    createdAt: integer().notNull(),
    /** When the address confirmed it (double opt-in): the second half of the evidence. */
    confirmedAt: integer(),
    /** When it was withdrawn (unsubscribe), and how: `one_click` (RFC 8058) or `page`. */
    withdrawnAt: integer(),
    withdrawnVia: text(),
  },
  (t) => [
    // "what did this address agree to?" (data-subject requests)
    index('consents_site_email_idx').on(t.siteId, t.email),
  ],
);

export const stockSubscriptions = sqliteTable(
  'stock_subscriptions',
  {
    id: text().primaryKey(),
    siteId: text()
      .notNull()
      .references(() => sites.id),
    variantId: text()
      .notNull()
      .references(() => productVariants.id),
    flowId: text()
      .notNull()
      .references(() => notificationFlows.id),
    email: text().notNull(),
    status: text({ enum: ['pending_confirmation', 'active', 'notified', 'unsubscribed'] }).notNull(),
    consentId: text()
      .notNull()
      .references(() => consents.id),
    locale: text(),
    marketId: text(),
    createdAt: integer().notNull(),
  },
  (t) => [
    // one subscription per address, variant and flow (the repeat is a no-op)
    uniqueIndex('stock_subscriptions_once_uq').on(t.siteId, t.variantId, t.flowId, t.email),
    // the back-in-stock triggers: the active subscriptions of a variant
    index('stock_subscriptions_variant_status_idx').on(t.variantId, t.status),
  ],
);

export const newsletterSubscriptions = sqliteTable(
  'newsletter_subscriptions',
  {
    id: text().primaryKey(),
    siteId: text()
      .notNull()
      .references(() => sites.id),
    email: text().notNull(),
    status: text({ enum: ['pending_confirmation', 'active', 'unsubscribed'] }).notNull(),
    consentId: text()
      .notNull()
      .references(() => consents.id),
    locale: text(),
    marketId: text(),
    source: text(),
    createdAt: integer().notNull(),
  },
  (t) => [
    // one subscription per address and Site
    uniqueIndex('newsletter_subscriptions_once_uq').on(t.siteId, t.email),
  ],
);

/** Transactional outbox: written with the change it announces, drained by a worker. */
export const outboxMessages = sqliteTable(
  'outbox_messages',
  {
    id: integer().primaryKey({ autoIncrement: true }),
    siteId: text()
      .notNull()
      .references(() => sites.id),
    topic: text().notNull(),
    aggregateId: text().notNull(),
    payload: text({ mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    /**
     * Who sends it: the mail drain takes `email` only; a message for another channel (an
     * SMS flow) waits for that channel's own sender.
     */
    channel: text().notNull().default('email'),
    /** pending → sent; or parked as `failed` after the last attempt; `skipped` when there was nothing left to say. */
    status: text({ enum: ['pending', 'sent', 'failed', 'skipped'] })
      .notNull()
      .default('pending'),
    createdAt: integer().notNull(),
    /** When it was handed to the mail server (or written as .eml). */
    dispatchedAt: integer(),
    attempts: integer().notNull().default(0),
    /** Not before this time (ms): the retry backoff. */
    nextAttemptAt: integer().notNull().default(0),
    /** A drainer holds the message until then; after it, another may take it (a crashed drainer). */
    leaseUntil: integer(),
    claimedBy: text(),
    lastError: text(),
  },
  (t) => [
    // the drain: due messages of a channel, oldest first
    index('outbox_messages_due_idx').on(t.channel, t.status, t.nextAttemptAt, t.id),
  ],
);

/**
 * Links in mails carry a random token; only its sha256 is kept. Each token does one thing
 * (`confirm` or `unsubscribe`) for one subscription; a confirm token is tied to the consent
 * it confirms and expires.
 */
export const subscriptionTokens = sqliteTable(
  'subscription_tokens',
  {
    /** sha256 of the token, hex. */
    tokenHash: text().primaryKey(),
    siteId: text()
      .notNull()
      .references(() => sites.id),
    purpose: text({ enum: ['confirm', 'unsubscribe'] }).notNull(),
    kind: text({ enum: ['stock', 'newsletter'] }).notNull(),
    subscriptionId: text().notNull(),
    consentId: text()
      .notNull()
      .references(() => consents.id),
    /** ms; null: does not expire (an unsubscribe link must keep working). */
    expiresAt: integer(),
    createdAt: integer().notNull(),
  },
  (t) => [
    // data-subject requests and clean-up: a subscription's tokens
    index('subscription_tokens_subscription_idx').on(t.subscriptionId),
  ],
);
