import { sqliteTable, text, integer, index, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { sites, credentials, notificationFlows } from './sites';
import { productVariants } from './catalog';

/** A consent as given: its own record, never reused for another purpose. */
export const consents = sqliteTable('consents', {
  id: text().primaryKey(),
  siteId: text().notNull().references(() => sites.id),
  purpose: text({ enum: ['stock_notification', 'newsletter'] }).notNull(),
  email: text().notNull(),
  text: text().notNull(),
  textVersion: text().notNull(),
  /** sha256 of the exact text, hex. */
  textHash: text().notNull(),
  locale: text(),
  source: text(),
  credentialId: text().notNull().references(() => credentials.id),
  createdAt: integer().notNull(),
}, (t) => [
  // "what did this address agree to?" (data-subject requests)
  index('consents_site_email_idx').on(t.siteId, t.email),
]);

export const stockSubscriptions = sqliteTable('stock_subscriptions', {
  id: text().primaryKey(),
  siteId: text().notNull().references(() => sites.id),
  variantId: text().notNull().references(() => productVariants.id),
  flowId: text().notNull().references(() => notificationFlows.id),
  email: text().notNull(),
  status: text({ enum: ['pending_confirmation', 'active', 'notified', 'unsubscribed'] }).notNull(),
  consentId: text().notNull().references(() => consents.id),
  locale: text(),
  marketId: text(),
  createdAt: integer().notNull(),
}, (t) => [
  // one subscription per address, variant and flow (the repeat is a no-op)
  uniqueIndex('stock_subscriptions_once_uq').on(t.siteId, t.variantId, t.flowId, t.email),
]);

export const newsletterSubscriptions = sqliteTable('newsletter_subscriptions', {
  id: text().primaryKey(),
  siteId: text().notNull().references(() => sites.id),
  email: text().notNull(),
  status: text({ enum: ['pending_confirmation', 'active', 'unsubscribed'] }).notNull(),
  consentId: text().notNull().references(() => consents.id),
  locale: text(),
  marketId: text(),
  source: text(),
  createdAt: integer().notNull(),
}, (t) => [
  // one subscription per address and Site
  uniqueIndex('newsletter_subscriptions_once_uq').on(t.siteId, t.email),
]);

/** Transactional outbox: written with the change it announces, drained by a worker. */
export const outboxMessages = sqliteTable('outbox_messages', {
  id: integer().primaryKey({ autoIncrement: true }),
  siteId: text().notNull().references(() => sites.id),
  topic: text().notNull(),
  aggregateId: text().notNull(),
  payload: text({ mode: 'json' }).$type<Record<string, unknown>>().notNull(),
  createdAt: integer().notNull(),
  dispatchedAt: integer(),
  attempts: integer().notNull().default(0),
}, (t) => [
  // the worker: undispatched messages in order
  index('outbox_messages_pending_idx').on(t.dispatchedAt, t.id),
]);
