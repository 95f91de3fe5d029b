// Prints the SQL of the product search index and the triggers that keep it (migration 0011,
// which replaces the index of 0009, with the documents of 0012 and the trigram table of the
// migration named trigram_extra_only); with --documents, only what 0012 does: the documents'
// view replaced and every document written again; with --extra-only, only what that last one
// does: the trigram table without the title, and the triggers that write it. Kept so the
// index can be regenerated into a new custom migration when the indexed texts change.
//
// Per product, one document per locale of the product's Site: its title and description in
// that locale (its Site's default locale when it has none there); and one in slot 0 with its
// option values and SKUs, the same in every locale, so indexed once. A document's rowid is
// `seq * 256 + slot`: seq numbers the product (product_search_ids), slot the locale
// (product_search_locales), so a search reads the product and the locale straight from the
// rowid, with no lookup per match.
//
// Two FTS5 tables hold the documents, both contentless (the texts live in the catalog tables;
// the index keeps only tokens, and contentless_delete lets a document be replaced):
// - product_search_text, trigram: substrings of 3+ characters of the option values and SKUs
//   (a code's middle, a colour inside a compound). Not of the description: that is most of
//   the text and would be most of the index and of its upkeep; nor, since the words index
//   finds a title's words, forms and compound parts (lib/commerce/catalog/stemming.ts), of
//   the title, which nothing read any more.
// - product_search_words, unicode61: whole words and 1–2 character prefixes of the title and
//   of the body (description; option values and SKUs); its vocabulary gives typo candidates.
//   Prefixes of 3+ characters are read from the terms themselves (few terms share one).
//   detail=column: queries are single words with a column filter, so positions are not needed.
//
// Triggers rewrite a product's documents in the transaction that changes it, so any change
// from any instance is searchable at once. A bulk writer (an import, the seed) sets
// product_search_bulk inside its transaction: the triggers then only note the product in
// product_search_pending, and the writer rewrites every noted product with one statement
// per table before it commits (db/search-index.ts).
const TEXT = 'product_search_text';
const WORDS = 'product_search_words';
const bulk = 'EXISTS (SELECT 1 FROM product_search_bulk)';
const notBulk = `NOT ${bulk}`;

/** The documents of the products `products` (a subquery of product ids) select. */
const forget = (products) =>
  [TEXT, WORDS].map(
    (t) =>
      `DELETE FROM ${t} WHERE rowid IN (SELECT i.seq * 256 + l.slot FROM product_search_ids i, product_search_locales l WHERE i.product_id IN (${products}));`,
  );
const write = (products) => [
  `INSERT INTO ${TEXT} (rowid, extra) SELECT doc, extra FROM product_search_documents WHERE product_id IN (${products}) ORDER BY doc;`,
  `INSERT INTO ${WORDS} (rowid, title, body) SELECT doc, title, body FROM product_search_documents WHERE product_id IN (${products}) ORDER BY doc;`,
];
const rewrite = (products) => [...forget(products), ...write(products)];
const note = (products) => [`INSERT OR IGNORE INTO product_search_pending (product_id) SELECT id FROM products WHERE id IN (${products});`];

const trigger = (name, event, steps, when = '') =>
  `CREATE TRIGGER ${name} AFTER ${event}${when ? ` WHEN ${when}` : ''} BEGIN ${steps.join(' ')} END;`;
/** A pair of triggers: rewrite now, or (in a bulk write) note the products for the writer. */
const keep = (name, event, products, { when = '', first = [] } = {}) => [
  trigger(`${name}_search`, event, [...first, ...rewrite(products)], when ? `(${when}) AND ${notBulk}` : notBulk),
  trigger(`${name}_search_later`, event, [...first, ...note(products)], when ? `(${when}) AND ${bulk}` : bulk),
];
const ofSite = (site) => `SELECT id FROM products WHERE site_id = ${site}`;

const extras =
  `coalesce((SELECT group_concat(j.value, ' ') FROM json_each(p.options) o, json_each(o.value, '$.values') j), '')` +
  ` || ' ' || coalesce((SELECT group_concat(v.sku, ' ') FROM product_variants v WHERE v.product_id = p.id), '')`;

/**
 * The option values a locale's document adds: the product's translation row in that locale,
 * else its default locale's row (the same rule as the texts shown); a row without option texts
 * adds none, and the stored values are in slot 0 for every locale anyway.
 */
const localOptions =
  `coalesce((SELECT group_concat(j.value, ' ') FROM json_each(CASE WHEN t.product_id IS NOT NULL THEN t.options ELSE d.options END) o, ` +
  `json_each(o.value, '$.values') j), '')`;

// What each document holds: per product, one row per locale of its Site's markets (title,
// description and the option values shown in that locale) and one in slot 0 (the stored
// option values and SKUs, the same in every locale).
const documentsView = `CREATE VIEW product_search_documents AS
  SELECT i.seq * 256 + l.slot AS doc, p.id AS product_id, coalesce(t.title, d.title, '') AS title,
    coalesce(t.description, d.description, '') || ' ' || ${localOptions} AS body, ${localOptions} AS extra
  FROM products p
  JOIN product_search_ids i ON i.product_id = p.id
  JOIN sites s ON s.id = p.site_id
  JOIN (SELECT DISTINCT site_id, locale FROM market_locales) ml ON ml.site_id = p.site_id
  JOIN product_search_locales l ON l.locale = ml.locale
  LEFT JOIN product_translations t ON t.product_id = p.id AND t.locale = ml.locale
  LEFT JOIN product_translations d ON d.product_id = p.id AND d.locale = s.default_locale
  UNION ALL
  SELECT i.seq * 256 AS doc, p.id AS product_id, '' AS title, ${extras} AS body, ${extras} AS extra
  FROM products p JOIN product_search_ids i ON i.product_id = p.id;`;

// Migration 0012: the documents also hold the option values shown in their locale (option
// texts per locale came in 0010): the view is replaced and every document written again.
const documentsOnly = [
  'DROP VIEW product_search_documents;',
  documentsView,
  ...[TEXT, WORDS].map((t) => `INSERT INTO ${t} (${t}) VALUES ('delete-all');`),
  ...write('SELECT id FROM products'),
  ...[TEXT, WORDS].map((t) => `INSERT INTO ${t} (${t}) VALUES ('optimize');`),
];

const old = [
  'product_translations_insert_search',
  'product_translations_update_search',
  'product_translations_delete_search',
  'products_insert_search',
  'products_update_search',
  'products_delete_search',
  'product_variants_insert_search',
  'product_variants_update_search',
  'product_variants_update_moved_search',
  'product_variants_delete_search',
];

const textTable = `CREATE VIRTUAL TABLE ${TEXT} USING fts5(extra, content = '', contentless_delete = 1, tokenize = 'trigram remove_diacritics 1');`;

const triggers = [
  ...keep('products_insert', 'INSERT ON products', 'NEW.id', {
    first: ['INSERT INTO product_search_ids (product_id, site_id, handle) VALUES (NEW.id, NEW.site_id, NEW.handle);'],
  }),
  trigger('products_update_seq', 'UPDATE OF handle, site_id ON products', [
    'UPDATE product_search_ids SET site_id = NEW.site_id, handle = NEW.handle WHERE product_id = NEW.id;',
  ]),
  ...keep('products_update', 'UPDATE OF options, site_id ON products', 'NEW.id'),
  trigger('products_delete_search', 'DELETE ON products', [
    ...forget('OLD.id'),
    'DELETE FROM product_search_ids WHERE product_id = OLD.id;',
    'DELETE FROM product_search_pending WHERE product_id = OLD.id;',
  ]),
  ...keep('product_translations_insert', 'INSERT ON product_translations', 'NEW.product_id'),
  ...keep('product_translations_update', 'UPDATE ON product_translations', 'NEW.product_id, OLD.product_id'),
  ...keep('product_translations_delete', 'DELETE ON product_translations', 'OLD.product_id'),
  ...keep('product_variants_insert', 'INSERT ON product_variants', 'NEW.product_id'),
  ...keep('product_variants_update', 'UPDATE OF sku, product_id ON product_variants', 'NEW.product_id, OLD.product_id'),
  ...keep('product_variants_delete', 'DELETE ON product_variants', 'OLD.product_id'),
  // A Site's locales or default locale decide which documents its products have.
  ...keep('market_locales_insert', 'INSERT ON market_locales', ofSite('NEW.site_id'), {
    first: ['INSERT OR IGNORE INTO product_search_locales (locale) VALUES (NEW.locale);'],
  }),
  ...keep('market_locales_delete', 'DELETE ON market_locales', ofSite('OLD.site_id')),
  ...keep('sites_update', 'UPDATE OF default_locale ON sites', ofSite('NEW.id')),
];
const triggerName = (statement) => /^CREATE TRIGGER (\w+)/.exec(statement)[1];

// The trigram table without the title (nothing reads it: the words index finds a title's
// words): the table made again, and the triggers that write it, with every document's extra.
const extraOnly = [
  ...triggers.map(triggerName).map((t) => `DROP TRIGGER ${t};`),
  `DROP TABLE ${TEXT};`,
  textTable,
  ...triggers,
  `INSERT INTO ${TEXT} (rowid, extra) SELECT doc, extra FROM product_search_documents ORDER BY doc;`,
  `INSERT INTO ${TEXT} (${TEXT}) VALUES ('optimize');`,
];

const out = [
  ...old.map((t, i) => `${i === 0 ? '-- Replaces the index of 0009.\n' : ''}DROP TRIGGER ${t};`),
  'DROP TABLE product_search_vocab;',
  'DROP TABLE product_search_text;',
  'DROP TABLE product_search_words;',
  'DROP TABLE product_search_keys;',
  // handle and site_id copied from products: a search orders a level's matches by handle from here alone.
  'CREATE TABLE product_search_ids (seq INTEGER PRIMARY KEY, product_id TEXT NOT NULL UNIQUE, site_id TEXT NOT NULL, handle TEXT NOT NULL);',
  // Slot 0 (locale '') is the product's option values and SKUs.
  'CREATE TABLE product_search_locales (slot INTEGER PRIMARY KEY CHECK (slot BETWEEN 0 AND 255), locale TEXT NOT NULL UNIQUE);',
  'CREATE TABLE product_search_bulk (id INTEGER PRIMARY KEY CHECK (id = 1));',
  'CREATE TABLE product_search_pending (product_id TEXT PRIMARY KEY) WITHOUT ROWID;',
  textTable,
  `CREATE VIRTUAL TABLE ${WORDS} USING fts5(title, body, content = '', contentless_delete = 1, detail = column, tokenize = 'unicode61 remove_diacritics 2', prefix = '1 2');`,
  `CREATE VIRTUAL TABLE product_search_vocab USING fts5vocab(${WORDS}, 'row');`,
  documentsView,
  ...triggers,
  "-- The index for the rows already there.\nINSERT INTO product_search_locales (slot, locale) VALUES (0, '');",
  'INSERT INTO product_search_locales (locale) SELECT DISTINCT locale FROM market_locales ORDER BY locale;',
  'INSERT INTO product_search_ids (product_id, site_id, handle) SELECT id, site_id, handle FROM products ORDER BY site_id, handle;',
  ...write('SELECT id FROM products'),
];
const printed = process.argv.includes('--documents') ? documentsOnly : process.argv.includes('--extra-only') ? extraOnly : out;
console.log(
  '-- Product search (GET /commerce/products?q=): see scripts/search-triggers.mjs, which prints this file.\n' +
    printed.join('\n--> statement-breakpoint\n'),
);
