-- Product search (GET /commerce/products?q=): see scripts/search-triggers.mjs, which prints this file.
-- Replaces the index of 0009.
DROP TRIGGER product_translations_insert_search;
--> statement-breakpoint
DROP TRIGGER product_translations_update_search;
--> statement-breakpoint
DROP TRIGGER product_translations_delete_search;
--> statement-breakpoint
DROP TRIGGER products_insert_search;
--> statement-breakpoint
DROP TRIGGER products_update_search;
--> statement-breakpoint
DROP TRIGGER products_delete_search;
--> statement-breakpoint
DROP TRIGGER product_variants_insert_search;
--> statement-breakpoint
DROP TRIGGER product_variants_update_search;
--> statement-breakpoint
DROP TRIGGER product_variants_update_moved_search;
--> statement-breakpoint
DROP TRIGGER product_variants_delete_search;
--> statement-breakpoint
DROP TABLE product_search_vocab;
--> statement-breakpoint
DROP TABLE product_search_text;
--> statement-breakpoint
DROP TABLE product_search_words;
--> statement-breakpoint
DROP TABLE product_search_keys;
--> statement-breakpoint
CREATE TABLE product_search_ids (seq INTEGER PRIMARY KEY, product_id TEXT NOT NULL UNIQUE, site_id TEXT NOT NULL, handle TEXT NOT NULL);
--> statement-breakpoint
CREATE TABLE product_search_locales (slot INTEGER PRIMARY KEY CHECK (slot BETWEEN 0 AND 255), locale TEXT NOT NULL UNIQUE);
--> statement-breakpoint
CREATE TABLE product_search_bulk (id INTEGER PRIMARY KEY CHECK (id = 1));
--> statement-breakpoint
CREATE TABLE product_search_pending (product_id TEXT PRIMARY KEY) WITHOUT ROWID;
--> statement-breakpoint
CREATE VIRTUAL TABLE product_search_text USING fts5(title, extra, content = '', contentless_delete = 1, tokenize = 'trigram remove_diacritics 1');
--> statement-breakpoint
CREATE VIRTUAL TABLE product_search_words USING fts5(title, body, content = '', contentless_delete = 1, detail = column, tokenize = 'unicode61 remove_diacritics 2', prefix = '1 2');
--> statement-breakpoint
CREATE VIRTUAL TABLE product_search_vocab USING fts5vocab(product_search_words, 'row');
--> statement-breakpoint
CREATE VIEW product_search_documents AS
  SELECT i.seq * 256 + l.slot AS doc, p.id AS product_id, coalesce(t.title, d.title, '') AS title, coalesce(t.description, d.description, '') AS body, '' AS extra
  FROM products p
  JOIN product_search_ids i ON i.product_id = p.id
  JOIN sites s ON s.id = p.site_id
  JOIN (SELECT DISTINCT site_id, locale FROM market_locales) ml ON ml.site_id = p.site_id
  JOIN product_search_locales l ON l.locale = ml.locale
  LEFT JOIN product_translations t ON t.product_id = p.id AND t.locale = ml.locale
  LEFT JOIN product_translations d ON d.product_id = p.id AND d.locale = s.default_locale
  UNION ALL
  SELECT i.seq * 256 AS doc, p.id AS product_id, '' AS title, coalesce((SELECT group_concat(j.value, ' ') FROM json_each(p.options) o, json_each(o.value, '$.values') j), '') || ' ' || coalesce((SELECT group_concat(v.sku, ' ') FROM product_variants v WHERE v.product_id = p.id), '') AS body, coalesce((SELECT group_concat(j.value, ' ') FROM json_each(p.options) o, json_each(o.value, '$.values') j), '') || ' ' || coalesce((SELECT group_concat(v.sku, ' ') FROM product_variants v WHERE v.product_id = p.id), '') AS extra
  FROM products p JOIN product_search_ids i ON i.product_id = p.id;
--> statement-breakpoint
CREATE TRIGGER products_insert_search AFTER INSERT ON products WHEN NOT EXISTS (SELECT 1 FROM product_search_bulk) BEGIN INSERT INTO product_search_ids (product_id, site_id, handle) VALUES (NEW.id, NEW.site_id, NEW.handle); DELETE FROM product_search_text WHERE rowid IN (SELECT i.seq * 256 + l.slot FROM product_search_ids i, product_search_locales l WHERE i.product_id IN (NEW.id)); DELETE FROM product_search_words WHERE rowid IN (SELECT i.seq * 256 + l.slot FROM product_search_ids i, product_search_locales l WHERE i.product_id IN (NEW.id)); INSERT INTO product_search_text (rowid, title, extra) SELECT doc, title, extra FROM product_search_documents WHERE product_id IN (NEW.id) ORDER BY doc; INSERT INTO product_search_words (rowid, title, body) SELECT doc, title, body FROM product_search_documents WHERE product_id IN (NEW.id) ORDER BY doc; END;
--> statement-breakpoint
CREATE TRIGGER products_insert_search_later AFTER INSERT ON products WHEN EXISTS (SELECT 1 FROM product_search_bulk) BEGIN INSERT INTO product_search_ids (product_id, site_id, handle) VALUES (NEW.id, NEW.site_id, NEW.handle); INSERT OR IGNORE INTO product_search_pending (product_id) SELECT id FROM products WHERE id IN (NEW.id); END;
--> statement-breakpoint
CREATE TRIGGER products_update_seq AFTER UPDATE OF handle, site_id ON products BEGIN UPDATE product_search_ids SET site_id = NEW.site_id, handle = NEW.handle WHERE product_id = NEW.id; END;
--> statement-breakpoint
CREATE TRIGGER products_update_search AFTER UPDATE OF options, site_id ON products WHEN NOT EXISTS (SELECT 1 FROM product_search_bulk) BEGIN DELETE FROM product_search_text WHERE rowid IN (SELECT i.seq * 256 + l.slot FROM product_search_ids i, product_search_locales l WHERE i.product_id IN (NEW.id)); DELETE FROM product_search_words WHERE rowid IN (SELECT i.seq * 256 + l.slot FROM product_search_ids i, product_search_locales l WHERE i.product_id IN (NEW.id)); INSERT INTO product_search_text (rowid, title, extra) SELECT doc, title, extra FROM product_search_documents WHERE product_id IN (NEW.id) ORDER BY doc; INSERT INTO product_search_words (rowid, title, body) SELECT doc, title, body FROM product_search_documents WHERE product_id IN (NEW.id) ORDER BY doc; END;
--> statement-breakpoint
CREATE TRIGGER products_update_search_later AFTER UPDATE OF options, site_id ON products WHEN EXISTS (SELECT 1 FROM product_search_bulk) BEGIN INSERT OR IGNORE INTO product_search_pending (product_id) SELECT id FROM products WHERE id IN (NEW.id); END;
--> statement-breakpoint
CREATE TRIGGER products_delete_search AFTER DELETE ON products BEGIN DELETE FROM product_search_text WHERE rowid IN (SELECT i.seq * 256 + l.slot FROM product_search_ids i, product_search_locales l WHERE i.product_id IN (OLD.id)); DELETE FROM product_search_words WHERE rowid IN (SELECT i.seq * 256 + l.slot FROM product_search_ids i, product_search_locales l WHERE i.product_id IN (OLD.id)); DELETE FROM product_search_ids WHERE product_id = OLD.id; DELETE FROM product_search_pending WHERE product_id = OLD.id; END;
--> statement-breakpoint
CREATE TRIGGER product_translations_insert_search AFTER INSERT ON product_translations WHEN NOT EXISTS (SELECT 1 FROM product_search_bulk) BEGIN DELETE FROM product_search_text WHERE rowid IN (SELECT i.seq * 256 + l.slot FROM product_search_ids i, product_search_locales l WHERE i.product_id IN (NEW.product_id)); DELETE FROM product_search_words WHERE rowid IN (SELECT i.seq * 256 + l.slot FROM product_search_ids i, product_search_locales l WHERE i.product_id IN (NEW.product_id)); INSERT INTO product_search_text (rowid, title, extra) SELECT doc, title, extra FROM product_search_documents WHERE product_id IN (NEW.product_id) ORDER BY doc; INSERT INTO product_search_words (rowid, title, body) SELECT doc, title, body FROM product_search_documents WHERE product_id IN (NEW.product_id) ORDER BY doc; END;
--> statement-breakpoint
CREATE TRIGGER product_translations_insert_search_later AFTER INSERT ON product_translations WHEN EXISTS (SELECT 1 FROM product_search_bulk) BEGIN INSERT OR IGNORE INTO product_search_pending (product_id) SELECT id FROM products WHERE id IN (NEW.product_id); END;
--> statement-breakpoint
CREATE TRIGGER product_translations_update_search AFTER UPDATE ON product_translations WHEN NOT EXISTS (SELECT 1 FROM product_search_bulk) BEGIN DELETE FROM product_search_text WHERE rowid IN (SELECT i.seq * 256 + l.slot FROM product_search_ids i, product_search_locales l WHERE i.product_id IN (NEW.product_id, OLD.product_id)); DELETE FROM product_search_words WHERE rowid IN (SELECT i.seq * 256 + l.slot FROM product_search_ids i, product_search_locales l WHERE i.product_id IN (NEW.product_id, OLD.product_id)); INSERT INTO product_search_text (rowid, title, extra) SELECT doc, title, extra FROM product_search_documents WHERE product_id IN (NEW.product_id, OLD.product_id) ORDER BY doc; INSERT INTO product_search_words (rowid, title, body) SELECT doc, title, body FROM product_search_documents WHERE product_id IN (NEW.product_id, OLD.product_id) ORDER BY doc; END;
--> statement-breakpoint
CREATE TRIGGER product_translations_update_search_later AFTER UPDATE ON product_translations WHEN EXISTS (SELECT 1 FROM product_search_bulk) BEGIN INSERT OR IGNORE INTO product_search_pending (product_id) SELECT id FROM products WHERE id IN (NEW.product_id, OLD.product_id); END;
--> statement-breakpoint
CREATE TRIGGER product_translations_delete_search AFTER DELETE ON product_translations WHEN NOT EXISTS (SELECT 1 FROM product_search_bulk) BEGIN DELETE FROM product_search_text WHERE rowid IN (SELECT i.seq * 256 + l.slot FROM product_search_ids i, product_search_locales l WHERE i.product_id IN (OLD.product_id)); DELETE FROM product_search_words WHERE rowid IN (SELECT i.seq * 256 + l.slot FROM product_search_ids i, product_search_locales l WHERE i.product_id IN (OLD.product_id)); INSERT INTO product_search_text (rowid, title, extra) SELECT doc, title, extra FROM product_search_documents WHERE product_id IN (OLD.product_id) ORDER BY doc; INSERT INTO product_search_words (rowid, title, body) SELECT doc, title, body FROM product_search_documents WHERE product_id IN (OLD.product_id) ORDER BY doc; END;
--> statement-breakpoint
CREATE TRIGGER product_translations_delete_search_later AFTER DELETE ON product_translations WHEN EXISTS (SELECT 1 FROM product_search_bulk) BEGIN INSERT OR IGNORE INTO product_search_pending (product_id) SELECT id FROM products WHERE id IN (OLD.product_id); END;
--> statement-breakpoint
CREATE TRIGGER product_variants_insert_search AFTER INSERT ON product_variants WHEN NOT EXISTS (SELECT 1 FROM product_search_bulk) BEGIN DELETE FROM product_search_text WHERE rowid IN (SELECT i.seq * 256 + l.slot FROM product_search_ids i, product_search_locales l WHERE i.product_id IN (NEW.product_id)); DELETE FROM product_search_words WHERE rowid IN (SELECT i.seq * 256 + l.slot FROM product_search_ids i, product_search_locales l WHERE i.product_id IN (NEW.product_id)); INSERT INTO product_search_text (rowid, title, extra) SELECT doc, title, extra FROM product_search_documents WHERE product_id IN (NEW.product_id) ORDER BY doc; INSERT INTO product_search_words (rowid, title, body) SELECT doc, title, body FROM product_search_documents WHERE product_id IN (NEW.product_id) ORDER BY doc; END;
--> statement-breakpoint
CREATE TRIGGER product_variants_insert_search_later AFTER INSERT ON product_variants WHEN EXISTS (SELECT 1 FROM product_search_bulk) BEGIN INSERT OR IGNORE INTO product_search_pending (product_id) SELECT id FROM products WHERE id IN (NEW.product_id); END;
--> statement-breakpoint
CREATE TRIGGER product_variants_update_search AFTER UPDATE OF sku, product_id ON product_variants WHEN NOT EXISTS (SELECT 1 FROM product_search_bulk) BEGIN DELETE FROM product_search_text WHERE rowid IN (SELECT i.seq * 256 + l.slot FROM product_search_ids i, product_search_locales l WHERE i.product_id IN (NEW.product_id, OLD.product_id)); DELETE FROM product_search_words WHERE rowid IN (SELECT i.seq * 256 + l.slot FROM product_search_ids i, product_search_locales l WHERE i.product_id IN (NEW.product_id, OLD.product_id)); INSERT INTO product_search_text (rowid, title, extra) SELECT doc, title, extra FROM product_search_documents WHERE product_id IN (NEW.product_id, OLD.product_id) ORDER BY doc; INSERT INTO product_search_words (rowid, title, body) SELECT doc, title, body FROM product_search_documents WHERE product_id IN (NEW.product_id, OLD.product_id) ORDER BY doc; END;
--> statement-breakpoint
CREATE TRIGGER product_variants_update_search_later AFTER UPDATE OF sku, product_id ON product_variants WHEN EXISTS (SELECT 1 FROM product_search_bulk) BEGIN INSERT OR IGNORE INTO product_search_pending (product_id) SELECT id FROM products WHERE id IN (NEW.product_id, OLD.product_id); END;
--> statement-breakpoint
CREATE TRIGGER product_variants_delete_search AFTER DELETE ON product_variants WHEN NOT EXISTS (SELECT 1 FROM product_search_bulk) BEGIN DELETE FROM product_search_text WHERE rowid IN (SELECT i.seq * 256 + l.slot FROM product_search_ids i, product_search_locales l WHERE i.product_id IN (OLD.product_id)); DELETE FROM product_search_words WHERE rowid IN (SELECT i.seq * 256 + l.slot FROM product_search_ids i, product_search_locales l WHERE i.product_id IN (OLD.product_id)); INSERT INTO product_search_text (rowid, title, extra) SELECT doc, title, extra FROM product_search_documents WHERE product_id IN (OLD.product_id) ORDER BY doc; INSERT INTO product_search_words (rowid, title, body) SELECT doc, title, body FROM product_search_documents WHERE product_id IN (OLD.product_id) ORDER BY doc; END;
--> statement-breakpoint
CREATE TRIGGER product_variants_delete_search_later AFTER DELETE ON product_variants WHEN EXISTS (SELECT 1 FROM product_search_bulk) BEGIN INSERT OR IGNORE INTO product_search_pending (product_id) SELECT id FROM products WHERE id IN (OLD.product_id); END;
--> statement-breakpoint
CREATE TRIGGER market_locales_insert_search AFTER INSERT ON market_locales WHEN NOT EXISTS (SELECT 1 FROM product_search_bulk) BEGIN INSERT OR IGNORE INTO product_search_locales (locale) VALUES (NEW.locale); DELETE FROM product_search_text WHERE rowid IN (SELECT i.seq * 256 + l.slot FROM product_search_ids i, product_search_locales l WHERE i.product_id IN (SELECT id FROM products WHERE site_id = NEW.site_id)); DELETE FROM product_search_words WHERE rowid IN (SELECT i.seq * 256 + l.slot FROM product_search_ids i, product_search_locales l WHERE i.product_id IN (SELECT id FROM products WHERE site_id = NEW.site_id)); INSERT INTO product_search_text (rowid, title, extra) SELECT doc, title, extra FROM product_search_documents WHERE product_id IN (SELECT id FROM products WHERE site_id = NEW.site_id) ORDER BY doc; INSERT INTO product_search_words (rowid, title, body) SELECT doc, title, body FROM product_search_documents WHERE product_id IN (SELECT id FROM products WHERE site_id = NEW.site_id) ORDER BY doc; END;
--> statement-breakpoint
CREATE TRIGGER market_locales_insert_search_later AFTER INSERT ON market_locales WHEN EXISTS (SELECT 1 FROM product_search_bulk) BEGIN INSERT OR IGNORE INTO product_search_locales (locale) VALUES (NEW.locale); INSERT OR IGNORE INTO product_search_pending (product_id) SELECT id FROM products WHERE id IN (SELECT id FROM products WHERE site_id = NEW.site_id); END;
--> statement-breakpoint
CREATE TRIGGER market_locales_delete_search AFTER DELETE ON market_locales WHEN NOT EXISTS (SELECT 1 FROM product_search_bulk) BEGIN DELETE FROM product_search_text WHERE rowid IN (SELECT i.seq * 256 + l.slot FROM product_search_ids i, product_search_locales l WHERE i.product_id IN (SELECT id FROM products WHERE site_id = OLD.site_id)); DELETE FROM product_search_words WHERE rowid IN (SELECT i.seq * 256 + l.slot FROM product_search_ids i, product_search_locales l WHERE i.product_id IN (SELECT id FROM products WHERE site_id = OLD.site_id)); INSERT INTO product_search_text (rowid, title, extra) SELECT doc, title, extra FROM product_search_documents WHERE product_id IN (SELECT id FROM products WHERE site_id = OLD.site_id) ORDER BY doc; INSERT INTO product_search_words (rowid, title, body) SELECT doc, title, body FROM product_search_documents WHERE product_id IN (SELECT id FROM products WHERE site_id = OLD.site_id) ORDER BY doc; END;
--> statement-breakpoint
CREATE TRIGGER market_locales_delete_search_later AFTER DELETE ON market_locales WHEN EXISTS (SELECT 1 FROM product_search_bulk) BEGIN INSERT OR IGNORE INTO product_search_pending (product_id) SELECT id FROM products WHERE id IN (SELECT id FROM products WHERE site_id = OLD.site_id); END;
--> statement-breakpoint
CREATE TRIGGER sites_update_search AFTER UPDATE OF default_locale ON sites WHEN NOT EXISTS (SELECT 1 FROM product_search_bulk) BEGIN DELETE FROM product_search_text WHERE rowid IN (SELECT i.seq * 256 + l.slot FROM product_search_ids i, product_search_locales l WHERE i.product_id IN (SELECT id FROM products WHERE site_id = NEW.id)); DELETE FROM product_search_words WHERE rowid IN (SELECT i.seq * 256 + l.slot FROM product_search_ids i, product_search_locales l WHERE i.product_id IN (SELECT id FROM products WHERE site_id = NEW.id)); INSERT INTO product_search_text (rowid, title, extra) SELECT doc, title, extra FROM product_search_documents WHERE product_id IN (SELECT id FROM products WHERE site_id = NEW.id) ORDER BY doc; INSERT INTO product_search_words (rowid, title, body) SELECT doc, title, body FROM product_search_documents WHERE product_id IN (SELECT id FROM products WHERE site_id = NEW.id) ORDER BY doc; END;
--> statement-breakpoint
CREATE TRIGGER sites_update_search_later AFTER UPDATE OF default_locale ON sites WHEN EXISTS (SELECT 1 FROM product_search_bulk) BEGIN INSERT OR IGNORE INTO product_search_pending (product_id) SELECT id FROM products WHERE id IN (SELECT id FROM products WHERE site_id = NEW.id); END;
--> statement-breakpoint
-- The index for the rows already there.
INSERT INTO product_search_locales (slot, locale) VALUES (0, '');
--> statement-breakpoint
INSERT INTO product_search_locales (locale) SELECT DISTINCT locale FROM market_locales ORDER BY locale;
--> statement-breakpoint
INSERT INTO product_search_ids (product_id, site_id, handle) SELECT id, site_id, handle FROM products ORDER BY site_id, handle;
--> statement-breakpoint
INSERT INTO product_search_text (rowid, title, extra) SELECT doc, title, extra FROM product_search_documents WHERE product_id IN (SELECT id FROM products) ORDER BY doc;
--> statement-breakpoint
INSERT INTO product_search_words (rowid, title, body) SELECT doc, title, body FROM product_search_documents WHERE product_id IN (SELECT id FROM products) ORDER BY doc;
