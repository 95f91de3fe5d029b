import { sqliteTable, text, integer, primaryKey, index, uniqueIndex } from 'drizzle-orm/sqlite-core';

/** A business's postal address, as the Site's settings give it. */
export type PostalAddress = { lines: string[]; postalCode: string; city: string; region?: string; country: string };

export const sites = sqliteTable(
  'sites',
  {
    id: text().primaryKey(),
    handle: text().notNull(),
    name: text().notNull(),
    defaultMarketId: text().notNull(),
    defaultLocale: text().notNull(),
    /** Hosted checkout base URL; a session's checkoutUrl is this plus the session id. */
    checkoutBaseUrl: text().notNull(),
    /** The business behind the shop, as its imprint and its mails name it (null: not set yet). */
    legalName: text(),
    /** Where the business can be written to: the imprint and every mail's footer. */
    postalAddress: text({ mode: 'json' }).$type<PostalAddress>(),
    /** Where shoppers write to (the contact page, the imprint). */
    contactEmail: text(),
    /**
     * Bumped by triggers on any change to what the catalog shows: the cheap "has anything
     * changed?" read. A stock level moves it only when a variant's status changes
     * (in stock, low stock, preorder, out of stock), since no answer shows the quantity.
     */
    catalogVersion: integer().notNull().default(1),
    /** Bumped by triggers on every change to a stock level: what checkout's per-version memo of quantities also keys on. */
    stockVersion: integer().notNull().default(1),
    createdAt: integer().notNull(),
  },
  (t) => [
    // credential CLI and seed: find a Site by handle
    uniqueIndex('sites_handle_uq').on(t.handle),
  ],
);

/**
 * What each catalog change touched, and at which catalog version: one row per scope (a
 * product, a collection, or the whole Site), holding the version of its latest change.
 * Written by the same triggers that bump sites.catalog_version
 * (db/migrations/0026_catalog_change_scopes.sql), so a cache can tell whether an entry
 * read at version V still holds: none of its scopes changed after V
 * (lib/platform/cache/catalog-changes.ts).
 */
export const catalogChanges = sqliteTable(
  'catalog_changes',
  {
    siteId: text()
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    /** `product:<handle>`, `collection:<handle>` or `site`. */
    scope: text().notNull(),
    version: integer().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.siteId, t.scope] }),
    // an instance catching up: what changed after the version it last saw
    index('catalog_changes_site_version_idx').on(t.siteId, t.version),
  ],
);

/**
 * One row (id 1) whose counter database triggers bump on every change to a credential or a
 * Site (db/migrations/0005_auth_epoch.sql). The per-request credential read checks it and
 * reads the credential with its Site again only when it moved: a checkout, a signup or a
 * rate-limit counter commits, but changes neither.
 */
export const authEpoch = sqliteTable('auth_epoch', {
  id: integer().primaryKey(),
  n: integer().notNull().default(0),
});

export const markets = sqliteTable(
  'markets',
  {
    siteId: text()
      .notNull()
      .references(() => sites.id),
    id: text().notNull(),
    name: text().notNull(),
    currency: text().notNull(),
    defaultLocale: text().notNull(),
    taxInclusive: integer({ mode: 'boolean' }).notNull(),
    /** Tax rate in basis points (2500 = 25%), used to show the tax part of a total. */
    taxRateBp: integer().notNull().default(0),
    position: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.id] })],
);

/** A market's name per locale; a locale without one shows the Site's default locale's, else markets.name. */
export const marketTranslations = sqliteTable(
  'market_translations',
  {
    siteId: text()
      .notNull()
      .references(() => sites.id),
    marketId: text().notNull(),
    locale: text().notNull(),
    name: text().notNull(),
  },
  (t) => [
    // a Site's market names, read with its markets
    primaryKey({ columns: [t.siteId, t.marketId, t.locale] }),
  ],
);

export const marketCountries = sqliteTable(
  'market_countries',
  {
    siteId: text()
      .notNull()
      .references(() => sites.id),
    country: text().notNull(),
    marketId: text().notNull(),
    position: integer().notNull(),
    /** The country's own tax rate in basis points, where it differs from its market's (null: the market's). */
    taxRateBp: integer(),
  },
  (t) => [
    // a country is served by at most one market of a Site (change-country looks it up)
    primaryKey({ columns: [t.siteId, t.country] }),
  ],
);

export const marketLocales = sqliteTable(
  'market_locales',
  {
    siteId: text()
      .notNull()
      .references(() => sites.id),
    marketId: text().notNull(),
    locale: text().notNull(),
    position: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.marketId, t.locale] })],
);

export const credentials = sqliteTable(
  'credentials',
  {
    id: text().primaryKey(),
    siteId: text()
      .notNull()
      .references(() => sites.id),
    scope: text({ enum: ['core', 'extended'] }).notNull(),
    /** sha256 of the whole credential, hex. The credential itself is never stored. */
    tokenHash: text().notNull(),
    /** First characters, to tell credentials apart in listings (`site_core_AbC…`). */
    displayPrefix: text().notNull(),
    label: text(),
    createdAt: integer().notNull(),
    revokedAt: integer(),
  },
  (t) => [
    // every request: look the presented credential up by its hash
    uniqueIndex('credentials_token_hash_uq').on(t.tokenHash),
    index('credentials_site_idx').on(t.siteId),
  ],
);

export const notificationFlows = sqliteTable(
  'notification_flows',
  {
    id: text().primaryKey(),
    siteId: text()
      .notNull()
      .references(() => sites.id),
    handle: text().notNull(),
    kind: text({ enum: ['stock'] }).notNull(),
    channel: text({ enum: ['email', 'sms'] }).notNull(),
    enabled: integer({ mode: 'boolean' }).notNull(),
    isDefault: integer({ mode: 'boolean' }).notNull().default(false),
  },
  (t) => [
    // stock subscription: resolve `flow` by handle within the Site
    uniqueIndex('notification_flows_site_handle_uq').on(t.siteId, t.handle),
  ],
);

/**
 * The storefront's own texts (hero, tagline, newsletter pitch, the legal pages' Markdown), one
 * row per text and locale or language ("de-DE", or "de" for every German locale). Written by
 * `npm run site -- import`; a read falls back from the locale to its language, then to the
 * Site's default locale (lib/commerce/site-settings/texts.ts). Changes bump the catalog
 * version (triggers), so every cache keyed on it sees them at the next request.
 */
export const siteTexts = sqliteTable(
  'site_texts',
  {
    siteId: text()
      .notNull()
      .references(() => sites.id),
    locale: text().notNull(),
    key: text().notNull(),
    body: text().notNull(),
  },
  (t) => [
    // a Site's texts, read whole per catalog version
    primaryKey({ columns: [t.siteId, t.locale, t.key] }),
  ],
);
