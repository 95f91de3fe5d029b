// Prints the SQL of migration 0009 (the product search index and the triggers that keep it).
// Kept so the triggers can be regenerated into a new custom migration when the indexed texts change.
//
// One row per (product, locale) translation in product_search_keys; its id is the rowid of the
// same document in two FTS5 tables: a trigram one (substrings of 3+ characters: compounds,
// prefixes) and a unicode61 one (whole words, short prefixes, and the vocabulary typos are
// looked up in). Triggers rebuild a product's documents whenever any indexed text changes, in
// the same transaction as the change.
const body = (p) =>
  `t.description || ' ' || coalesce((SELECT group_concat(j.value, ' ') FROM products pp, json_each(pp.options) o, json_each(o.value, '$.values') j WHERE pp.id = ${p}), '')` +
  ` || ' ' || coalesce((SELECT group_concat(v.sku, ' ') FROM product_variants v WHERE v.product_id = ${p}), '')`;
const forget = (p) => [
  `DELETE FROM product_search_text WHERE rowid IN (SELECT id FROM product_search_keys WHERE product_id = ${p});`,
  `DELETE FROM product_search_words WHERE rowid IN (SELECT id FROM product_search_keys WHERE product_id = ${p});`,
  `DELETE FROM product_search_keys WHERE product_id = ${p};`,
];
const index = (p) => [
  `INSERT INTO product_search_keys (product_id, locale) SELECT product_id, locale FROM product_translations WHERE product_id = ${p};`,
  `INSERT INTO product_search_text (rowid, title, body) SELECT k.id, t.title, ${body(p)} FROM product_search_keys k JOIN product_translations t ON t.product_id = k.product_id AND t.locale = k.locale WHERE k.product_id = ${p};`,
  `INSERT INTO product_search_words (rowid, title, body) SELECT rowid, title, body FROM product_search_text WHERE rowid IN (SELECT id FROM product_search_keys WHERE product_id = ${p});`,
];
const reindex = (p) => [...forget(p), ...index(p)].join(' ');
const trigger = (name, event, p, when = '') => `CREATE TRIGGER ${name} AFTER ${event}${when ? ` WHEN ${when}` : ''} BEGIN ${reindex(p)} END;`;
const out = [
  'CREATE TABLE product_search_keys (id INTEGER PRIMARY KEY, product_id TEXT NOT NULL, locale TEXT NOT NULL);',
  'CREATE UNIQUE INDEX product_search_keys_product_locale_uq ON product_search_keys (product_id, locale);',
  "CREATE VIRTUAL TABLE product_search_text USING fts5(title, body, tokenize = 'trigram remove_diacritics 1');",
  "CREATE VIRTUAL TABLE product_search_words USING fts5(title, body, tokenize = 'unicode61 remove_diacritics 2', prefix = '1 2 3');",
  "CREATE VIRTUAL TABLE product_search_vocab USING fts5vocab(product_search_words, 'row');",
  trigger('product_translations_insert_search', 'INSERT ON product_translations', 'NEW.product_id'),
  trigger('product_translations_update_search', 'UPDATE ON product_translations', 'NEW.product_id'),
  trigger('product_translations_update_moved_search', 'UPDATE OF product_id ON product_translations', 'OLD.product_id', 'OLD.product_id <> NEW.product_id'),
  trigger('product_translations_delete_search', 'DELETE ON product_translations', 'OLD.product_id'),
  trigger('products_update_search', 'UPDATE OF options ON products', 'NEW.id'),
  `CREATE TRIGGER products_delete_search AFTER DELETE ON products BEGIN ${forget('OLD.id').join(' ')} END;`,
  trigger('product_variants_insert_search', 'INSERT ON product_variants', 'NEW.product_id'),
  trigger('product_variants_update_search', 'UPDATE OF sku, product_id ON product_variants', 'NEW.product_id'),
  trigger('product_variants_update_moved_search', 'UPDATE OF product_id ON product_variants', 'OLD.product_id', 'OLD.product_id <> NEW.product_id'),
  trigger('product_variants_delete_search', 'DELETE ON product_variants', 'OLD.product_id'),
  '-- The index for the rows already there.\nINSERT INTO product_search_keys (product_id, locale) SELECT product_id, locale FROM product_translations;',
  `INSERT INTO product_search_text (rowid, title, body) SELECT k.id, t.title, ${body('t.product_id')} FROM product_search_keys k JOIN product_translations t ON t.product_id = k.product_id AND t.locale = k.locale;`,
  'INSERT INTO product_search_words (rowid, title, body) SELECT rowid, title, body FROM product_search_text;',
];
console.log('-- Product search (GET /commerce/products?q=): see scripts/search-triggers.mjs, which prints this file.\n' + out.join('\n--> statement-breakpoint\n'));
