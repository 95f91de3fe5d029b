import { sqliteTable, text, integer, blob, primaryKey, index } from 'drizzle-orm/sqlite-core';
import { sites } from './sites';

/** Idempotency-Key records, per credential, kept 24 h; shared by every instance. */
export const idempotencyKeys = sqliteTable(
  'idempotency_keys',
  {
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
  },
  (t) => [
    primaryKey({ columns: [t.credentialId, t.key] }),
    // purge of expired keys
    index('idempotency_keys_expires_idx').on(t.expiresAt),
  ],
);

/** Fixed-window request counters, per credential (and shopper, for writes). */
export const rateLimitCounters = sqliteTable(
  'rate_limit_counters',
  {
    bucket: text().notNull(),
    windowStart: integer().notNull(),
    count: integer().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.bucket, t.windowStart] }),
    // purge of old windows
    index('rate_limit_counters_window_idx').on(t.windowStart),
  ],
);

/** Append-only analytics intake: no IP, no user agent, no credential identity. */
export const analyticsEvents = sqliteTable(
  'analytics_events',
  {
    id: integer().primaryKey({ autoIncrement: true }),
    siteId: text()
      .notNull()
      .references(() => sites.id),
    day: text().notNull(),
    type: text().notNull(),
    occurredAt: integer().notNull(),
    receivedAt: integer().notNull(),
    anonymousId: text().notNull(),
    payload: text({ mode: 'json' }).$type<Record<string, unknown>>().notNull(),
  },
  (t) => [
    // reporting: a Site's events per day and type
    index('analytics_events_site_day_idx').on(t.siteId, t.day, t.type),
  ],
);

/**
 * Product answers of the API as sent, shared by every instance (lib/platform/cache/stored-answers.ts):
 * a new instance serves what another one already built instead of building it again. One row
 * per answer address and build (during a deploy two builds serve the same addresses, each its
 * own answers); a row answers only while none of the catalog scopes it shows changed after the
 * version it was read at (catalog_changes).
 */
export const storedAnswers = sqliteTable(
  'stored_answers',
  {
    siteId: text()
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    origin: text().notNull(),
    market: text().notNull(),
    locale: text().notNull(),
    handle: text().notNull(),
    build: text().notNull(),
    /** The catalog version the answer was read at. */
    validAt: integer().notNull(),
    /** The catalog_changes scopes the answer shows, comma-separated. */
    scopes: text().notNull(),
    etag: text().notNull(),
    storedAt: integer().notNull(),
    /** Last: a query that needs only the columns above never reads the answer's overflow pages. */
    body: text().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.siteId, t.origin, t.market, t.locale, t.handle, t.build] }),
    // clean-up of other builds
    index('stored_answers_build_idx').on(t.siteId, t.build),
  ],
);

/**
 * Product pages as rendered, gzipped, shared by every instance (lib/storefront/stored-pages.ts).
 * One row per page address and build (during a deploy two builds serve the same addresses,
 * each its own pages); a row answers for the catalog version it was rendered at, and the
 * build's next render of the address replaces it.
 */
export const storedPages = sqliteTable(
  'stored_pages',
  {
    siteId: text()
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    origin: text().notNull(),
    market: text().notNull(),
    locale: text().notNull(),
    handle: text().notNull(),
    build: text().notNull(),
    catalogVersion: integer().notNull(),
    storedAt: integer().notNull(),
    /** The page's Content-Security-Policy, made from the hashes of its inline scripts. */
    policy: text().notNull(),
    /** Last: a query that needs only the columns above never reads the page's overflow pages. */
    html: blob({ mode: 'buffer' }).notNull(),
    /**
     * The API reads the page was rendered from (path and query → ETag, or `status:N` for an
     * answer that was no 200), JSON; null when they are not known. A page of an older catalog
     * version whose reads all still answer the same is the page the new version would render.
     */
    reads: text(),
  },
  (t) => [
    primaryKey({ columns: [t.siteId, t.origin, t.market, t.locale, t.handle, t.build] }),
    // clean-up of other builds
    index('stored_pages_build_idx').on(t.siteId, t.build),
  ],
);
