// Prints the SQL of migration 0009 (the product search index and the triggers that keep it).
// Kept so the triggers can be regenerated into a new custom migration when the indexed texts change.
//
// product_search_keys names the documents: one per (product, locale) translation (its title
// and description) and one per product with locale '' (its option values and SKUs, the same in
// every locale). A key's id is the rowid of its document in two FTS5 tables: a trigram one
// (substrings of 3+ characters: prefixes, words inside compounds) and a unicode61 one (whole
// words, 1–3 character prefixes, and the vocabulary typos are looked up in). Triggers keep
// them in the same transaction as the change. Each change rewrites only its own document, so
// an import writes each translation once and each product's small option/SKU document once
// per variant.
const key = (p, l) => `(SELECT id FROM product_search_keys WHERE product_id = ${p} AND locale = ${l})`;
const forget = (p, l) => [
  `DELETE FROM product_search_text WHERE rowid = ${key(p, l)};`,
  `DELETE FROM product_search_words WHERE rowid = ${key(p, l)};`,
  `DELETE FROM product_search_keys WHERE product_id = ${p} AND locale = ${l};`,
];
const write = (p, l, title, body) => [
  `INSERT INTO product_search_text (rowid, title, body) SELECT ${key(p, l)}, ${title}, ${body} WHERE ${key(p, l)} IS NOT NULL;`,
  `INSERT INTO product_search_words (rowid, title, body) SELECT ${key(p, l)}, ${title}, ${body} WHERE ${key(p, l)} IS NOT NULL;`,
];
const translation = (row) => [
  `INSERT INTO product_search_keys (product_id, locale) VALUES (${row}.product_id, ${row}.locale);`,
  ...write(`${row}.product_id`, `${row}.locale`, `${row}.title`, `${row}.description`),
];
const extrasBody = (p) =>
  `coalesce((SELECT group_concat(j.value, ' ') FROM products pp, json_each(pp.options) o, json_each(o.value, '$.values') j WHERE pp.id = ${p}), '')` +
  ` || ' ' || coalesce((SELECT group_concat(v.sku, ' ') FROM product_variants v WHERE v.product_id = ${p}), '')`;
const extras = (p) => [
  ...forget(p, "''"),
  `INSERT INTO product_search_keys (product_id, locale) SELECT id, '' FROM products WHERE id = ${p};`,
  ...write(p, "''", "''", extrasBody(p)),
];
const trigger = (name, event, steps, when = '') => `CREATE TRIGGER ${name} AFTER ${event}${when ? ` WHEN ${when}` : ''} BEGIN ${steps.join(' ')} END;`;
const out = [
  'CREATE TABLE product_search_keys (id INTEGER PRIMARY KEY, product_id TEXT NOT NULL, locale TEXT NOT NULL);',
  'CREATE UNIQUE INDEX product_search_keys_product_locale_uq ON product_search_keys (product_id, locale);',
  "CREATE VIRTUAL TABLE product_search_text USING fts5(title, body, tokenize = 'trigram remove_diacritics 1');",
  "CREATE VIRTUAL TABLE product_search_words USING fts5(title, body, tokenize = 'unicode61 remove_diacritics 2', prefix = '1 2 3');",
  "CREATE VIRTUAL TABLE product_search_vocab USING fts5vocab(product_search_words, 'row');",
  trigger('product_translations_insert_search', 'INSERT ON product_translations', translation('NEW')),
  trigger('product_translations_update_search', 'UPDATE ON product_translations', [...forget('OLD.product_id', 'OLD.locale'), ...translation('NEW')]),
  trigger('product_translations_delete_search', 'DELETE ON product_translations', forget('OLD.product_id', 'OLD.locale')),
  trigger('products_insert_search', 'INSERT ON products', extras('NEW.id')),
  trigger('products_update_search', 'UPDATE OF options ON products', extras('NEW.id')),
  trigger('products_delete_search', 'DELETE ON products', [
    'DELETE FROM product_search_text WHERE rowid IN (SELECT id FROM product_search_keys WHERE product_id = OLD.id);',
    'DELETE FROM product_search_words WHERE rowid IN (SELECT id FROM product_search_keys WHERE product_id = OLD.id);',
    'DELETE FROM product_search_keys WHERE product_id = OLD.id;',
  ]),
  trigger('product_variants_insert_search', 'INSERT ON product_variants', extras('NEW.product_id')),
  trigger('product_variants_update_search', 'UPDATE OF sku, product_id ON product_variants', extras('NEW.product_id')),
  trigger('product_variants_update_moved_search', 'UPDATE OF product_id ON product_variants', extras('OLD.product_id'), 'OLD.product_id <> NEW.product_id'),
  trigger('product_variants_delete_search', 'DELETE ON product_variants', extras('OLD.product_id')),
  "-- The index for the rows already there.\nINSERT INTO product_search_keys (product_id, locale) SELECT product_id, locale FROM product_translations UNION ALL SELECT id, '' FROM products;",
  `INSERT INTO product_search_text (rowid, title, body) SELECT k.id, t.title, t.description FROM product_search_keys k JOIN product_translations t ON t.product_id = k.product_id AND t.locale = k.locale;`,
  `INSERT INTO product_search_text (rowid, title, body) SELECT k.id, '', ${extrasBody('k.product_id')} FROM product_search_keys k WHERE k.locale = '';`,
  'INSERT INTO product_search_words (rowid, title, body) SELECT rowid, title, body FROM product_search_text;',
];
console.log('-- Product search (GET /commerce/products?q=): see scripts/search-triggers.mjs, which prints this file.\n' + out.join('\n--> statement-breakpoint\n'));
