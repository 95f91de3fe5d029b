-- Product search: the trigram table without the title (nothing reads it); see scripts/search-triggers.mjs --extra-only, which prints this file.
DROP TRIGGER products_insert_search;
--> statement-breakpoint
DROP TRIGGER products_insert_search_later;
--> statement-breakpoint
DROP TRIGGER products_update_seq;
--> statement-breakpoint
DROP TRIGGER products_update_search;
--> statement-breakpoint
DROP TRIGGER products_update_search_later;
--> statement-breakpoint
DROP TRIGGER products_delete_search;
--> statement-breakpoint
DROP TRIGGER product_translations_insert_search;
--> statement-breakpoint
DROP TRIGGER product_translations_insert_search_later;
--> statement-breakpoint
DROP TRIGGER product_translations_update_search;
--> statement-breakpoint
DROP TRIGGER product_translations_update_search_later;
--> statement-breakpoint
DROP TRIGGER product_translations_delete_search;
--> statement-breakpoint
DROP TRIGGER product_translations_delete_search_later;
--> statement-breakpoint
DROP TRIGGER product_variants_insert_search;
--> statement-breakpoint
DROP TRIGGER product_variants_insert_search_later;
--> statement-breakpoint
DROP TRIGGER product_variants_update_search;
--> statement-breakpoint
DROP TRIGGER product_variants_update_search_later;
--> statement-breakpoint
DROP TRIGGER product_variants_delete_search;
--> statement-breakpoint
DROP TRIGGER product_variants_delete_search_later;
--> statement-breakpoint
DROP TRIGGER market_locales_insert_search;
--> statement-breakpoint
DROP TRIGGER market_locales_insert_search_later;
--> statement-breakpoint
DROP TRIGGER market_locales_delete_search;
--> statement-breakpoint
DROP TRIGGER market_locales_delete_search_later;
--> statement-breakpoint
DROP TRIGGER sites_update_search;
--> statement-breakpoint
DROP TRIGGER sites_update_search_later;
--> statement-breakpoint
DROP TABLE product_search_text;
--> statement-breakpoint
CREATE VIRTUAL TABLE product_search_text USING fts5(extra, content = '', contentless_delete = 1, tokenize = 'trigram remove_diacritics 1');
--> statement-breakpoint
CREATE TRIGGER products_insert_search AFTER INSERT ON products WHEN NOT EXISTS (SELECT 1 FROM product_search_bulk) BEGIN INSERT INTO product_search_ids (product_id, site_id, handle) VALUES (NEW.id, NEW.site_id, NEW.handle); DELETE FROM product_search_text WHERE rowid IN (SELECT i.seq * 256 + l.slot FROM product_search_ids i, product_search_locales l WHERE i.product_id IN (NEW.id)); DELETE FROM product_search_words WHERE rowid IN (SELECT i.seq * 256 + l.slot FROM product_search_ids i, product_search_locales l WHERE i.product_id IN (NEW.id)); INSERT INTO product_search_text (rowid, extra) SELECT doc, extra FROM product_search_documents WHERE product_id IN (NEW.id) ORDER BY doc; INSERT INTO product_search_words (rowid, title, body) SELECT doc, title, body FROM product_search_documents WHERE product_id IN (NEW.id) ORDER BY doc; END;
--> statement-breakpoint
CREATE TRIGGER products_insert_search_later AFTER INSERT ON products WHEN EXISTS (SELECT 1 FROM product_search_bulk) BEGIN INSERT INTO product_search_ids (product_id, site_id, handle) VALUES (NEW.id, NEW.site_id, NEW.handle); INSERT OR IGNORE INTO product_search_pending (product_id) SELECT id FROM products WHERE id IN (NEW.id); END;
--> statement-breakpoint
CREATE TRIGGER products_update_seq AFTER UPDATE OF handle, site_id ON products BEGIN UPDATE product_search_ids SET site_id = NEW.site_id, handle = NEW.handle WHERE product_id = NEW.id; END;
--> statement-breakpoint
CREATE TRIGGER products_update_search AFTER UPDATE OF options, site_id ON products WHEN NOT EXISTS (SELECT 1 FROM product_search_bulk) BEGIN DELETE FROM product_search_text WHERE rowid IN (SELECT i.seq * 256 + l.slot FROM product_search_ids i, product_search_locales l WHERE i.product_id IN (NEW.id)); DELETE FROM product_search_words WHERE rowid IN (SELECT i.seq * 256 + l.slot FROM product_search_ids i, product_search_locales l WHERE i.product_id IN (NEW.id)); INSERT INTO product_search_text (rowid, extra) SELECT doc, extra FROM product_search_documents WHERE product_id IN (NEW.id) ORDER BY doc; INSERT INTO product_search_words (rowid, title, body) SELECT doc, title, body FROM product_search_documents WHERE product_id IN (NEW.id) ORDER BY doc; END;
--> statement-breakpoint
CREATE TRIGGER products_update_search_later AFTER UPDATE OF options, site_id ON products WHEN EXISTS (SELECT 1 FROM product_search_bulk) BEGIN INSERT OR IGNORE INTO product_search_pending (product_id) SELECT id FROM products WHERE id IN (NEW.id); END;
--> statement-breakpoint
CREATE TRIGGER products_delete_search AFTER DELETE ON products BEGIN DELETE FROM product_search_text WHERE rowid IN (SELECT i.seq * 256 + l.slot FROM product_search_ids i, product_search_locales l WHERE i.product_id IN (OLD.id)); DELETE FROM product_search_words WHERE rowid IN (SELECT i.seq * 256 + l.slot FROM product_search_ids i, product_search_locales l WHERE i.product_id IN (OLD.id)); DELETE FROM product_search_ids WHERE product_id = OLD.id; DELETE FROM product_search_pending WHERE product_id = OLD.id; END;
--> statement-breakpoint
CREATE TRIGGER product_translations_insert_search AFTER INSERT ON product_translations WHEN NOT EXISTS (SELECT 1 FROM product_search_bulk) BEGIN DELETE FROM product_search_text WHERE rowid IN (SELECT i.seq * 256 + l.slot FROM product_search_ids i, product_search_locales l WHERE i.product_id IN (NEW.product_id)); DELETE FROM product_search_words WHERE rowid IN (SELECT i.seq * 256 + l.slot FROM product_search_ids i, product_search_locales l WHERE i.product_id IN (NEW.product_id)); INSERT INTO product_search_text (rowid, extra) SELECT doc, extra FROM product_search_documents WHERE product_id IN (NEW.product_id) ORDER BY doc; INSERT INTO product_search_words (rowid, title, body) SELECT doc, title, body FROM product_search_documents WHERE product_id IN (NEW.product_id) ORDER BY doc; END;
--> statement-breakpoint
CREATE TRIGGER product_translations_insert_search_later AFTER INSERT ON product_translations WHEN EXISTS (SELECT 1 FROM product_search_bulk) BEGIN INSERT OR IGNORE INTO product_search_pending (product_id) SELECT id FROM products WHERE id IN (NEW.product_id); END;
--> statement-breakpoint
CREATE TRIGGER product_translations_update_search AFTER UPDATE ON product_translations WHEN NOT EXISTS (SELECT 1 FROM product_search_bulk) BEGIN DELETE FROM product_search_text WHERE rowid IN (SELECT i.seq * 256 + l.slot FROM product_search_ids i, product_search_locales l WHERE i.product_id IN (NEW.product_id, OLD.product_id)); DELETE FROM product_search_words WHERE rowid IN (SELECT i.seq * 256 + l.slot FROM product_search_ids i, product_search_locales l WHERE i.product_id IN (NEW.product_id, OLD.product_id)); INSERT INTO product_search_text (rowid, extra) SELECT doc, extra FROM product_search_documents WHERE product_id IN (NEW.product_id, OLD.product_id) ORDER BY doc; INSERT INTO product_search_words (rowid, title, body) SELECT doc, title, body FROM product_search_documents WHERE product_id IN (NEW.product_id, OLD.product_id) ORDER BY doc; END;
--> statement-breakpoint
CREATE TRIGGER product_translations_update_search_later AFTER UPDATE ON product_translations WHEN EXISTS (SELECT 1 FROM product_search_bulk) BEGIN INSERT OR IGNORE INTO product_search_pending (product_id) SELECT id FROM products WHERE id IN (NEW.product_id, OLD.product_id); END;
--> statement-breakpoint
CREATE TRIGGER product_translations_delete_search AFTER DELETE ON product_translations WHEN NOT EXISTS (SELECT 1 FROM product_search_bulk) BEGIN DELETE FROM product_search_text WHERE rowid IN (SELECT i.seq * 256 + l.slot FROM product_search_ids i, product_search_locales l WHERE i.product_id IN (OLD.product_id)); DELETE FROM product_search_words WHERE rowid IN (SELECT i.seq * 256 + l.slot FROM product_search_ids i, product_search_locales l WHERE i.product_id IN (OLD.product_id)); INSERT INTO product_search_text (rowid, extra) SELECT doc, extra FROM product_search_documents WHERE product_id IN (OLD.product_id) ORDER BY doc; INSERT INTO product_search_words (rowid, title, body) SELECT doc, title, body FROM product_search_documents WHERE product_id IN (OLD.product_id) ORDER BY doc; END;
--> statement-breakpoint
CREATE TRIGGER product_translations_delete_search_later AFTER DELETE ON product_translations WHEN EXISTS (SELECT 1 FROM product_search_bulk) BEGIN INSERT OR IGNORE INTO product_search_pending (product_id) SELECT id FROM products WHERE id IN (OLD.product_id); END;
--> statement-breakpoint
CREATE TRIGGER product_variants_insert_search AFTER INSERT ON product_variants WHEN NOT EXISTS (SELECT 1 FROM product_search_bulk) BEGIN DELETE FROM product_search_text WHERE rowid IN (SELECT i.seq * 256 + l.slot FROM product_search_ids i, product_search_locales l WHERE i.product_id IN (NEW.product_id)); DELETE FROM product_search_words WHERE rowid IN (SELECT i.seq * 256 + l.slot FROM product_search_ids i, product_search_locales l WHERE i.product_id IN (NEW.product_id)); INSERT INTO product_search_text (rowid, extra) SELECT doc, extra FROM product_search_documents WHERE product_id IN (NEW.product_id) ORDER BY doc; INSERT INTO product_search_words (rowid, title, body) SELECT doc, title, body FROM product_search_documents WHERE product_id IN (NEW.product_id) ORDER BY doc; END;
--> statement-breakpoint
CREATE TRIGGER product_variants_insert_search_later AFTER INSERT ON product_variants WHEN EXISTS (SELECT 1 FROM product_search_bulk) BEGIN INSERT OR IGNORE INTO product_search_pending (product_id) SELECT id FROM products WHERE id IN (NEW.product_id); END;
--> statement-breakpoint
CREATE TRIGGER product_variants_update_search AFTER UPDATE OF sku, product_id ON product_variants WHEN NOT EXISTS (SELECT 1 FROM product_search_bulk) BEGIN DELETE FROM product_search_text WHERE rowid IN (SELECT i.seq * 256 + l.slot FROM product_search_ids i, product_search_locales l WHERE i.product_id IN (NEW.product_id, OLD.product_id)); DELETE FROM product_search_words WHERE rowid IN (SELECT i.seq * 256 + l.slot FROM product_search_ids i, product_search_locales l WHERE i.product_id IN (NEW.product_id, OLD.product_id)); INSERT INTO product_search_text (rowid, extra) SELECT doc, extra FROM product_search_documents WHERE product_id IN (NEW.product_id, OLD.product_id) ORDER BY doc; INSERT INTO product_search_words (rowid, title, body) SELECT doc, title, body FROM product_search_documents WHERE product_id IN (NEW.product_id, OLD.product_id) ORDER BY doc; END;
--> statement-breakpoint
CREATE TRIGGER product_variants_update_search_later AFTER UPDATE OF sku, product_id ON product_variants WHEN EXISTS (SELECT 1 FROM product_search_bulk) BEGIN INSERT OR IGNORE INTO product_search_pending (product_id) SELECT id FROM products WHERE id IN (NEW.product_id, OLD.product_id); END;
--> statement-breakpoint
CREATE TRIGGER product_variants_delete_search AFTER DELETE ON product_variants WHEN NOT EXISTS (SELECT 1 FROM product_search_bulk) BEGIN DELETE FROM product_search_text WHERE rowid IN (SELECT i.seq * 256 + l.slot FROM product_search_ids i, product_search_locales l WHERE i.product_id IN (OLD.product_id)); DELETE FROM product_search_words WHERE rowid IN (SELECT i.seq * 256 + l.slot FROM product_search_ids i, product_search_locales l WHERE i.product_id IN (OLD.product_id)); INSERT INTO product_search_text (rowid, extra) SELECT doc, extra FROM product_search_documents WHERE product_id IN (OLD.product_id) ORDER BY doc; INSERT INTO product_search_words (rowid, title, body) SELECT doc, title, body FROM product_search_documents WHERE product_id IN (OLD.product_id) ORDER BY doc; END;
--> statement-breakpoint
CREATE TRIGGER product_variants_delete_search_later AFTER DELETE ON product_variants WHEN EXISTS (SELECT 1 FROM product_search_bulk) BEGIN INSERT OR IGNORE INTO product_search_pending (product_id) SELECT id FROM products WHERE id IN (OLD.product_id); END;
--> statement-breakpoint
CREATE TRIGGER market_locales_insert_search AFTER INSERT ON market_locales WHEN NOT EXISTS (SELECT 1 FROM product_search_bulk) BEGIN INSERT OR IGNORE INTO product_search_locales (locale) VALUES (NEW.locale); DELETE FROM product_search_text WHERE rowid IN (SELECT i.seq * 256 + l.slot FROM product_search_ids i, product_search_locales l WHERE i.product_id IN (SELECT id FROM products WHERE site_id = NEW.site_id)); DELETE FROM product_search_words WHERE rowid IN (SELECT i.seq * 256 + l.slot FROM product_search_ids i, product_search_locales l WHERE i.product_id IN (SELECT id FROM products WHERE site_id = NEW.site_id)); INSERT INTO product_search_text (rowid, extra) SELECT doc, extra FROM product_search_documents WHERE product_id IN (SELECT id FROM products WHERE site_id = NEW.site_id) ORDER BY doc; INSERT INTO product_search_words (rowid, title, body) SELECT doc, title, body FROM product_search_documents WHERE product_id IN (SELECT id FROM products WHERE site_id = NEW.site_id) ORDER BY doc; END;
--> statement-breakpoint
CREATE TRIGGER market_locales_insert_search_later AFTER INSERT ON market_locales WHEN EXISTS (SELECT 1 FROM product_search_bulk) BEGIN INSERT OR IGNORE INTO product_search_locales (locale) VALUES (NEW.locale); INSERT OR IGNORE INTO product_search_pending (product_id) SELECT id FROM products WHERE id IN (SELECT id FROM products WHERE site_id = NEW.site_id); END;
--> statement-breakpoint
CREATE TRIGGER market_locales_delete_search AFTER DELETE ON market_locales WHEN NOT EXISTS (SELECT 1 FROM product_search_bulk) BEGIN DELETE FROM product_search_text WHERE rowid IN (SELECT i.seq * 256 + l.slot FROM product_search_ids i, product_search_locales l WHERE i.product_id IN (SELECT id FROM products WHERE site_id = OLD.site_id)); DELETE FROM product_search_words WHERE rowid IN (SELECT i.seq * 256 + l.slot FROM product_search_ids i, product_search_locales l WHERE i.product_id IN (SELECT id FROM products WHERE site_id = OLD.site_id)); INSERT INTO product_search_text (rowid, extra) SELECT doc, extra FROM product_search_documents WHERE product_id IN (SELECT id FROM products WHERE site_id = OLD.site_id) ORDER BY doc; INSERT INTO product_search_words (rowid, title, body) SELECT doc, title, body FROM product_search_documents WHERE product_id IN (SELECT id FROM products WHERE site_id = OLD.site_id) ORDER BY doc; END;
--> statement-breakpoint
CREATE TRIGGER market_locales_delete_search_later AFTER DELETE ON market_locales WHEN EXISTS (SELECT 1 FROM product_search_bulk) BEGIN INSERT OR IGNORE INTO product_search_pending (product_id) SELECT id FROM products WHERE id IN (SELECT id FROM products WHERE site_id = OLD.site_id); END;
--> statement-breakpoint
CREATE TRIGGER sites_update_search AFTER UPDATE OF default_locale ON sites WHEN NOT EXISTS (SELECT 1 FROM product_search_bulk) BEGIN DELETE FROM product_search_text WHERE rowid IN (SELECT i.seq * 256 + l.slot FROM product_search_ids i, product_search_locales l WHERE i.product_id IN (SELECT id FROM products WHERE site_id = NEW.id)); DELETE FROM product_search_words WHERE rowid IN (SELECT i.seq * 256 + l.slot FROM product_search_ids i, product_search_locales l WHERE i.product_id IN (SELECT id FROM products WHERE site_id = NEW.id)); INSERT INTO product_search_text (rowid, extra) SELECT doc, extra FROM product_search_documents WHERE product_id IN (SELECT id FROM products WHERE site_id = NEW.id) ORDER BY doc; INSERT INTO product_search_words (rowid, title, body) SELECT doc, title, body FROM product_search_documents WHERE product_id IN (SELECT id FROM products WHERE site_id = NEW.id) ORDER BY doc; END;
--> statement-breakpoint
CREATE TRIGGER sites_update_search_later AFTER UPDATE OF default_locale ON sites WHEN EXISTS (SELECT 1 FROM product_search_bulk) BEGIN INSERT OR IGNORE INTO product_search_pending (product_id) SELECT id FROM products WHERE id IN (SELECT id FROM products WHERE site_id = NEW.id); END;
--> statement-breakpoint
INSERT INTO product_search_text (rowid, extra) SELECT doc, extra FROM product_search_documents ORDER BY doc;
--> statement-breakpoint
INSERT INTO product_search_text (product_search_text) VALUES ('optimize');
