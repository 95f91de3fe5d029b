-- Product search (GET /commerce/products?q=): see scripts/search-triggers.mjs, which prints this file.
DROP VIEW product_search_documents;
--> statement-breakpoint
CREATE VIEW product_search_documents AS
  SELECT i.seq * 256 + l.slot AS doc, p.id AS product_id, coalesce(t.title, d.title, '') AS title,
    coalesce(t.description, d.description, '') || ' ' || coalesce((SELECT group_concat(j.value, ' ') FROM json_each(CASE WHEN t.product_id IS NOT NULL THEN t.options ELSE d.options END) o, json_each(o.value, '$.values') j), '') AS body, coalesce((SELECT group_concat(j.value, ' ') FROM json_each(CASE WHEN t.product_id IS NOT NULL THEN t.options ELSE d.options END) o, json_each(o.value, '$.values') j), '') AS extra
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
INSERT INTO product_search_text (product_search_text) VALUES ('delete-all');
--> statement-breakpoint
INSERT INTO product_search_words (product_search_words) VALUES ('delete-all');
--> statement-breakpoint
INSERT INTO product_search_text (rowid, title, extra) SELECT doc, title, extra FROM product_search_documents WHERE product_id IN (SELECT id FROM products) ORDER BY doc;
--> statement-breakpoint
INSERT INTO product_search_words (rowid, title, body) SELECT doc, title, body FROM product_search_documents WHERE product_id IN (SELECT id FROM products) ORDER BY doc;
--> statement-breakpoint
INSERT INTO product_search_text (product_search_text) VALUES ('optimize');
--> statement-breakpoint
INSERT INTO product_search_words (product_search_words) VALUES ('optimize');
