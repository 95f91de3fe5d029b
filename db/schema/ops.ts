import { sqliteTable, text, integer, primaryKey, index } from 'drizzle-orm/sqlite-core';
import { sites } from './sites';

/** Idempotency-Key records, per credential, kept 24 h; shared by every instance. */
export const idempotencyKeys = sqliteTable('idempotency_keys', {
  credentialId: text().notNull(),
  key: text().notNull(),
  method: text().notNull(),
  path: text().notNull(),
  /** sha256 of method, path and body: a reused key with another request is refused. */
  requestHash: text().notNull(),
  state: text({ enum: ['in_flight', 'done'] }).notNull(),
  responseStatus: integer(),
  responseHeaders: text({ mode: 'json' }).$type<Record<string, string>>(),
  responseBody: text(),
  createdAt: integer().notNull(),
  expiresAt: integer().notNull(),
}, (t) => [
  primaryKey({ columns: [t.credentialId, t.key] }),
  // purge of expired keys
  index('idempotency_keys_expires_idx').on(t.expiresAt),
]);

/** Fixed-window request counters, per credential (and shopper, for writes). */
export const rateLimitCounters = sqliteTable('rate_limit_counters', {
  bucket: text().notNull(),
  windowStart: integer().notNull(),
  count: integer().notNull(),
}, (t) => [
  primaryKey({ columns: [t.bucket, t.windowStart] }),
  // purge of old windows
  index('rate_limit_counters_window_idx').on(t.windowStart),
]);

/** Append-only analytics intake: no IP, no user agent, no credential identity. */
export const analyticsEvents = sqliteTable('analytics_events', {
  id: integer().primaryKey({ autoIncrement: true }),
  siteId: text().notNull().references(() => sites.id),
  day: text().notNull(),
  type: text().notNull(),
  occurredAt: integer().notNull(),
  receivedAt: integer().notNull(),
  anonymousId: text().notNull(),
  payload: text({ mode: 'json' }).$type<Record<string, unknown>>().notNull(),
}, (t) => [
  // reporting: a Site's events per day and type
  index('analytics_events_site_day_idx').on(t.siteId, t.day, t.type),
]);
