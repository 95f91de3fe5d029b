-- Every trigger that moves sites.catalog_version also says what the change touched: the
-- product (by handle), the collection (by handle) or the whole Site, at the version it
-- moved to (db/schema/sites.ts, catalogChanges). A stock level that leaves the variant's
-- status alone moves neither.
DROP TRIGGER `bundle_items_delete_bump`;
--> statement-breakpoint
CREATE TRIGGER bundle_items_delete_bump AFTER DELETE ON bundle_items BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = (SELECT p.site_id FROM bundles b JOIN products p ON p.id = b.product_id WHERE b.id = OLD.bundle_id); INSERT INTO catalog_changes (site_id, scope, version) SELECT p.site_id, 'product:' || p.handle, s.catalog_version FROM products p JOIN sites s ON s.id = p.site_id WHERE p.id IN (SELECT product_id FROM bundles WHERE id IN (OLD.bundle_id)) ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; END;
--> statement-breakpoint
DROP TRIGGER `bundle_items_insert_bump`;
--> statement-breakpoint
CREATE TRIGGER bundle_items_insert_bump AFTER INSERT ON bundle_items BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = (SELECT p.site_id FROM bundles b JOIN products p ON p.id = b.product_id WHERE b.id = NEW.bundle_id); INSERT INTO catalog_changes (site_id, scope, version) SELECT p.site_id, 'product:' || p.handle, s.catalog_version FROM products p JOIN sites s ON s.id = p.site_id WHERE p.id IN (SELECT product_id FROM bundles WHERE id IN (NEW.bundle_id)) ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; END;
--> statement-breakpoint
DROP TRIGGER `bundle_items_update_bump`;
--> statement-breakpoint
CREATE TRIGGER bundle_items_update_bump AFTER UPDATE ON bundle_items BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = (SELECT p.site_id FROM bundles b JOIN products p ON p.id = b.product_id WHERE b.id = NEW.bundle_id); INSERT INTO catalog_changes (site_id, scope, version) SELECT p.site_id, 'product:' || p.handle, s.catalog_version FROM products p JOIN sites s ON s.id = p.site_id WHERE p.id IN (SELECT product_id FROM bundles WHERE id IN (NEW.bundle_id, OLD.bundle_id)) ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; END;
--> statement-breakpoint
DROP TRIGGER `bundle_prices_delete_bump`;
--> statement-breakpoint
CREATE TRIGGER bundle_prices_delete_bump AFTER DELETE ON bundle_prices BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = (SELECT p.site_id FROM bundles b JOIN products p ON p.id = b.product_id WHERE b.id = OLD.bundle_id); INSERT INTO catalog_changes (site_id, scope, version) SELECT p.site_id, 'product:' || p.handle, s.catalog_version FROM products p JOIN sites s ON s.id = p.site_id WHERE p.id IN (SELECT product_id FROM bundles WHERE id IN (OLD.bundle_id)) ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; END;
--> statement-breakpoint
DROP TRIGGER `bundle_prices_insert_bump`;
--> statement-breakpoint
CREATE TRIGGER bundle_prices_insert_bump AFTER INSERT ON bundle_prices BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = (SELECT p.site_id FROM bundles b JOIN products p ON p.id = b.product_id WHERE b.id = NEW.bundle_id); INSERT INTO catalog_changes (site_id, scope, version) SELECT p.site_id, 'product:' || p.handle, s.catalog_version FROM products p JOIN sites s ON s.id = p.site_id WHERE p.id IN (SELECT product_id FROM bundles WHERE id IN (NEW.bundle_id)) ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; END;
--> statement-breakpoint
DROP TRIGGER `bundle_prices_update_bump`;
--> statement-breakpoint
CREATE TRIGGER bundle_prices_update_bump AFTER UPDATE ON bundle_prices BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = (SELECT p.site_id FROM bundles b JOIN products p ON p.id = b.product_id WHERE b.id = NEW.bundle_id); INSERT INTO catalog_changes (site_id, scope, version) SELECT p.site_id, 'product:' || p.handle, s.catalog_version FROM products p JOIN sites s ON s.id = p.site_id WHERE p.id IN (SELECT product_id FROM bundles WHERE id IN (NEW.bundle_id, OLD.bundle_id)) ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; END;
--> statement-breakpoint
DROP TRIGGER `bundles_delete_bump`;
--> statement-breakpoint
CREATE TRIGGER bundles_delete_bump AFTER DELETE ON bundles BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = (SELECT site_id FROM products WHERE id = OLD.product_id); INSERT INTO catalog_changes (site_id, scope, version) SELECT p.site_id, 'product:' || p.handle, s.catalog_version FROM products p JOIN sites s ON s.id = p.site_id WHERE p.id IN (OLD.product_id) ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; END;
--> statement-breakpoint
DROP TRIGGER `bundles_insert_bump`;
--> statement-breakpoint
CREATE TRIGGER bundles_insert_bump AFTER INSERT ON bundles BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = (SELECT site_id FROM products WHERE id = NEW.product_id); INSERT INTO catalog_changes (site_id, scope, version) SELECT p.site_id, 'product:' || p.handle, s.catalog_version FROM products p JOIN sites s ON s.id = p.site_id WHERE p.id IN (NEW.product_id) ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; END;
--> statement-breakpoint
DROP TRIGGER `bundles_update_bump`;
--> statement-breakpoint
CREATE TRIGGER bundles_update_bump AFTER UPDATE ON bundles BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = (SELECT site_id FROM products WHERE id = NEW.product_id); INSERT INTO catalog_changes (site_id, scope, version) SELECT p.site_id, 'product:' || p.handle, s.catalog_version FROM products p JOIN sites s ON s.id = p.site_id WHERE p.id IN (NEW.product_id, OLD.product_id) ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; END;
--> statement-breakpoint
DROP TRIGGER `collection_products_delete_bump`;
--> statement-breakpoint
CREATE TRIGGER collection_products_delete_bump AFTER DELETE ON collection_products BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = (SELECT site_id FROM collections WHERE id = OLD.collection_id); INSERT INTO catalog_changes (site_id, scope, version) SELECT p.site_id, 'product:' || p.handle, s.catalog_version FROM products p JOIN sites s ON s.id = p.site_id WHERE p.id IN (OLD.product_id) ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; INSERT INTO catalog_changes (site_id, scope, version) SELECT c.site_id, 'collection:' || c.handle, s.catalog_version FROM collections c JOIN sites s ON s.id = c.site_id WHERE c.id IN (OLD.collection_id) ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; END;
--> statement-breakpoint
DROP TRIGGER `collection_products_insert_bump`;
--> statement-breakpoint
CREATE TRIGGER collection_products_insert_bump AFTER INSERT ON collection_products BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = (SELECT site_id FROM collections WHERE id = NEW.collection_id); INSERT INTO catalog_changes (site_id, scope, version) SELECT p.site_id, 'product:' || p.handle, s.catalog_version FROM products p JOIN sites s ON s.id = p.site_id WHERE p.id IN (NEW.product_id) ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; INSERT INTO catalog_changes (site_id, scope, version) SELECT c.site_id, 'collection:' || c.handle, s.catalog_version FROM collections c JOIN sites s ON s.id = c.site_id WHERE c.id IN (NEW.collection_id) ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; END;
--> statement-breakpoint
DROP TRIGGER `collection_products_update_bump`;
--> statement-breakpoint
CREATE TRIGGER collection_products_update_bump AFTER UPDATE ON collection_products BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = (SELECT site_id FROM collections WHERE id = NEW.collection_id); INSERT INTO catalog_changes (site_id, scope, version) SELECT p.site_id, 'product:' || p.handle, s.catalog_version FROM products p JOIN sites s ON s.id = p.site_id WHERE p.id IN (NEW.product_id, OLD.product_id) ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; INSERT INTO catalog_changes (site_id, scope, version) SELECT c.site_id, 'collection:' || c.handle, s.catalog_version FROM collections c JOIN sites s ON s.id = c.site_id WHERE c.id IN (NEW.collection_id, OLD.collection_id) ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; END;
--> statement-breakpoint
DROP TRIGGER `collection_translations_delete_bump`;
--> statement-breakpoint
CREATE TRIGGER collection_translations_delete_bump AFTER DELETE ON collection_translations BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = (SELECT site_id FROM collections WHERE id = OLD.collection_id); INSERT INTO catalog_changes (site_id, scope, version) SELECT c.site_id, 'collection:' || c.handle, s.catalog_version FROM collections c JOIN sites s ON s.id = c.site_id WHERE c.id IN (OLD.collection_id) ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; END;
--> statement-breakpoint
DROP TRIGGER `collection_translations_insert_bump`;
--> statement-breakpoint
CREATE TRIGGER collection_translations_insert_bump AFTER INSERT ON collection_translations BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = (SELECT site_id FROM collections WHERE id = NEW.collection_id); INSERT INTO catalog_changes (site_id, scope, version) SELECT c.site_id, 'collection:' || c.handle, s.catalog_version FROM collections c JOIN sites s ON s.id = c.site_id WHERE c.id IN (NEW.collection_id) ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; END;
--> statement-breakpoint
DROP TRIGGER `collection_translations_update_bump`;
--> statement-breakpoint
CREATE TRIGGER collection_translations_update_bump AFTER UPDATE ON collection_translations BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = (SELECT site_id FROM collections WHERE id = NEW.collection_id); INSERT INTO catalog_changes (site_id, scope, version) SELECT c.site_id, 'collection:' || c.handle, s.catalog_version FROM collections c JOIN sites s ON s.id = c.site_id WHERE c.id IN (NEW.collection_id, OLD.collection_id) ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; END;
--> statement-breakpoint
DROP TRIGGER `collections_delete_bump`;
--> statement-breakpoint
CREATE TRIGGER collections_delete_bump AFTER DELETE ON collections BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = OLD.site_id; INSERT INTO catalog_changes (site_id, scope, version) SELECT id, 'collection:' || OLD.handle, catalog_version FROM sites WHERE id = OLD.site_id ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; END;
--> statement-breakpoint
DROP TRIGGER `collections_insert_bump`;
--> statement-breakpoint
CREATE TRIGGER collections_insert_bump AFTER INSERT ON collections BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = NEW.site_id; INSERT INTO catalog_changes (site_id, scope, version) SELECT id, 'collection:' || NEW.handle, catalog_version FROM sites WHERE id = NEW.site_id ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; END;
--> statement-breakpoint
DROP TRIGGER `collections_update_bump`;
--> statement-breakpoint
CREATE TRIGGER collections_update_bump AFTER UPDATE ON collections BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = NEW.site_id; INSERT INTO catalog_changes (site_id, scope, version) SELECT id, 'collection:' || NEW.handle, catalog_version FROM sites WHERE id = NEW.site_id ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; INSERT INTO catalog_changes (site_id, scope, version) SELECT id, 'collection:' || OLD.handle, catalog_version FROM sites WHERE id = OLD.site_id ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; END;
--> statement-breakpoint
DROP TRIGGER `inventory_levels_delete_bump`;
--> statement-breakpoint
CREATE TRIGGER inventory_levels_delete_bump AFTER DELETE ON inventory_levels BEGIN UPDATE sites SET catalog_version = catalog_version + 1, stock_version = stock_version + 1 WHERE id = (SELECT site_id FROM product_variants WHERE id = OLD.variant_id); INSERT INTO catalog_changes (site_id, scope, version) SELECT p.site_id, 'product:' || p.handle, s.catalog_version FROM products p JOIN sites s ON s.id = p.site_id WHERE p.id IN (SELECT product_id FROM product_variants WHERE id IN (OLD.variant_id)) ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; END;
--> statement-breakpoint
DROP TRIGGER `inventory_levels_insert_bump`;
--> statement-breakpoint
CREATE TRIGGER inventory_levels_insert_bump AFTER INSERT ON inventory_levels BEGIN UPDATE sites SET catalog_version = catalog_version + 1, stock_version = stock_version + 1 WHERE id = (SELECT site_id FROM product_variants WHERE id = NEW.variant_id); INSERT INTO catalog_changes (site_id, scope, version) SELECT p.site_id, 'product:' || p.handle, s.catalog_version FROM products p JOIN sites s ON s.id = p.site_id WHERE p.id IN (SELECT product_id FROM product_variants WHERE id IN (NEW.variant_id)) ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; END;
--> statement-breakpoint
DROP TRIGGER `inventory_levels_update_bump`;
--> statement-breakpoint
CREATE TRIGGER inventory_levels_update_bump AFTER UPDATE ON inventory_levels BEGIN UPDATE sites SET stock_version = stock_version + 1, catalog_version = catalog_version + ((CASE WHEN OLD.policy = 'continue' THEN 'in_stock' WHEN OLD.quantity > OLD.low_stock_threshold THEN 'in_stock' WHEN OLD.quantity > 0 THEN 'low_stock' WHEN OLD.policy = 'preorder' THEN 'preorder' ELSE 'out_of_stock' END) IS NOT (CASE WHEN NEW.policy = 'continue' THEN 'in_stock' WHEN NEW.quantity > NEW.low_stock_threshold THEN 'in_stock' WHEN NEW.quantity > 0 THEN 'low_stock' WHEN NEW.policy = 'preorder' THEN 'preorder' ELSE 'out_of_stock' END) OR OLD.variant_id IS NOT NEW.variant_id) WHERE id IN (SELECT site_id FROM product_variants WHERE id IN (OLD.variant_id, NEW.variant_id)); INSERT INTO catalog_changes (site_id, scope, version) SELECT p.site_id, 'product:' || p.handle, s.catalog_version FROM products p JOIN sites s ON s.id = p.site_id WHERE p.id IN (SELECT product_id FROM product_variants WHERE id IN (NEW.variant_id, OLD.variant_id)) AND ((CASE WHEN OLD.policy = 'continue' THEN 'in_stock' WHEN OLD.quantity > OLD.low_stock_threshold THEN 'in_stock' WHEN OLD.quantity > 0 THEN 'low_stock' WHEN OLD.policy = 'preorder' THEN 'preorder' ELSE 'out_of_stock' END) IS NOT (CASE WHEN NEW.policy = 'continue' THEN 'in_stock' WHEN NEW.quantity > NEW.low_stock_threshold THEN 'in_stock' WHEN NEW.quantity > 0 THEN 'low_stock' WHEN NEW.policy = 'preorder' THEN 'preorder' ELSE 'out_of_stock' END) OR OLD.variant_id IS NOT NEW.variant_id) ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; END;
--> statement-breakpoint
DROP TRIGGER `market_countries_delete_bump`;
--> statement-breakpoint
CREATE TRIGGER market_countries_delete_bump AFTER DELETE ON market_countries BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = OLD.site_id; INSERT INTO catalog_changes (site_id, scope, version) SELECT id, 'site', catalog_version FROM sites WHERE id = OLD.site_id ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; END;
--> statement-breakpoint
DROP TRIGGER `market_countries_insert_bump`;
--> statement-breakpoint
CREATE TRIGGER market_countries_insert_bump AFTER INSERT ON market_countries BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = NEW.site_id; INSERT INTO catalog_changes (site_id, scope, version) SELECT id, 'site', catalog_version FROM sites WHERE id = NEW.site_id ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; END;
--> statement-breakpoint
DROP TRIGGER `market_countries_update_bump`;
--> statement-breakpoint
CREATE TRIGGER market_countries_update_bump AFTER UPDATE ON market_countries BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = NEW.site_id; INSERT INTO catalog_changes (site_id, scope, version) SELECT id, 'site', catalog_version FROM sites WHERE id = NEW.site_id ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; INSERT INTO catalog_changes (site_id, scope, version) SELECT id, 'site', catalog_version FROM sites WHERE id = OLD.site_id ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; END;
--> statement-breakpoint
DROP TRIGGER `market_locales_delete_bump`;
--> statement-breakpoint
CREATE TRIGGER market_locales_delete_bump AFTER DELETE ON market_locales BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = OLD.site_id; INSERT INTO catalog_changes (site_id, scope, version) SELECT id, 'site', catalog_version FROM sites WHERE id = OLD.site_id ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; END;
--> statement-breakpoint
DROP TRIGGER `market_locales_insert_bump`;
--> statement-breakpoint
CREATE TRIGGER market_locales_insert_bump AFTER INSERT ON market_locales BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = NEW.site_id; INSERT INTO catalog_changes (site_id, scope, version) SELECT id, 'site', catalog_version FROM sites WHERE id = NEW.site_id ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; END;
--> statement-breakpoint
DROP TRIGGER `market_locales_update_bump`;
--> statement-breakpoint
CREATE TRIGGER market_locales_update_bump AFTER UPDATE ON market_locales BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = NEW.site_id; INSERT INTO catalog_changes (site_id, scope, version) SELECT id, 'site', catalog_version FROM sites WHERE id = NEW.site_id ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; INSERT INTO catalog_changes (site_id, scope, version) SELECT id, 'site', catalog_version FROM sites WHERE id = OLD.site_id ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; END;
--> statement-breakpoint
DROP TRIGGER `market_translations_delete_bump`;
--> statement-breakpoint
CREATE TRIGGER market_translations_delete_bump AFTER DELETE ON market_translations BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = OLD.site_id; INSERT INTO catalog_changes (site_id, scope, version) SELECT id, 'site', catalog_version FROM sites WHERE id = OLD.site_id ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; END;
--> statement-breakpoint
DROP TRIGGER `market_translations_insert_bump`;
--> statement-breakpoint
CREATE TRIGGER market_translations_insert_bump AFTER INSERT ON market_translations BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = NEW.site_id; INSERT INTO catalog_changes (site_id, scope, version) SELECT id, 'site', catalog_version FROM sites WHERE id = NEW.site_id ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; END;
--> statement-breakpoint
DROP TRIGGER `market_translations_update_bump`;
--> statement-breakpoint
CREATE TRIGGER market_translations_update_bump AFTER UPDATE ON market_translations BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = NEW.site_id; INSERT INTO catalog_changes (site_id, scope, version) SELECT id, 'site', catalog_version FROM sites WHERE id = NEW.site_id ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; INSERT INTO catalog_changes (site_id, scope, version) SELECT id, 'site', catalog_version FROM sites WHERE id = OLD.site_id ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; END;
--> statement-breakpoint
DROP TRIGGER `markets_delete_bump`;
--> statement-breakpoint
CREATE TRIGGER markets_delete_bump AFTER DELETE ON markets BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = OLD.site_id; INSERT INTO catalog_changes (site_id, scope, version) SELECT id, 'site', catalog_version FROM sites WHERE id = OLD.site_id ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; END;
--> statement-breakpoint
DROP TRIGGER `markets_insert_bump`;
--> statement-breakpoint
CREATE TRIGGER markets_insert_bump AFTER INSERT ON markets BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = NEW.site_id; INSERT INTO catalog_changes (site_id, scope, version) SELECT id, 'site', catalog_version FROM sites WHERE id = NEW.site_id ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; END;
--> statement-breakpoint
DROP TRIGGER `markets_update_bump`;
--> statement-breakpoint
CREATE TRIGGER markets_update_bump AFTER UPDATE ON markets BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = NEW.site_id; INSERT INTO catalog_changes (site_id, scope, version) SELECT id, 'site', catalog_version FROM sites WHERE id = NEW.site_id ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; INSERT INTO catalog_changes (site_id, scope, version) SELECT id, 'site', catalog_version FROM sites WHERE id = OLD.site_id ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; END;
--> statement-breakpoint
DROP TRIGGER `product_images_delete_bump`;
--> statement-breakpoint
CREATE TRIGGER product_images_delete_bump AFTER DELETE ON product_images BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = (SELECT site_id FROM products WHERE id = OLD.product_id); INSERT INTO catalog_changes (site_id, scope, version) SELECT p.site_id, 'product:' || p.handle, s.catalog_version FROM products p JOIN sites s ON s.id = p.site_id WHERE p.id IN (OLD.product_id) ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; END;
--> statement-breakpoint
DROP TRIGGER `product_images_insert_bump`;
--> statement-breakpoint
CREATE TRIGGER product_images_insert_bump AFTER INSERT ON product_images BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = (SELECT site_id FROM products WHERE id = NEW.product_id); INSERT INTO catalog_changes (site_id, scope, version) SELECT p.site_id, 'product:' || p.handle, s.catalog_version FROM products p JOIN sites s ON s.id = p.site_id WHERE p.id IN (NEW.product_id) ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; END;
--> statement-breakpoint
DROP TRIGGER `product_images_update_bump`;
--> statement-breakpoint
CREATE TRIGGER product_images_update_bump AFTER UPDATE ON product_images BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = (SELECT site_id FROM products WHERE id = NEW.product_id); INSERT INTO catalog_changes (site_id, scope, version) SELECT p.site_id, 'product:' || p.handle, s.catalog_version FROM products p JOIN sites s ON s.id = p.site_id WHERE p.id IN (NEW.product_id, OLD.product_id) ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; END;
--> statement-breakpoint
DROP TRIGGER `product_translations_delete_bump`;
--> statement-breakpoint
CREATE TRIGGER product_translations_delete_bump AFTER DELETE ON product_translations BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = (SELECT site_id FROM products WHERE id = OLD.product_id); INSERT INTO catalog_changes (site_id, scope, version) SELECT p.site_id, 'product:' || p.handle, s.catalog_version FROM products p JOIN sites s ON s.id = p.site_id WHERE p.id IN (OLD.product_id) ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; END;
--> statement-breakpoint
DROP TRIGGER `product_translations_insert_bump`;
--> statement-breakpoint
CREATE TRIGGER product_translations_insert_bump AFTER INSERT ON product_translations BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = (SELECT site_id FROM products WHERE id = NEW.product_id); INSERT INTO catalog_changes (site_id, scope, version) SELECT p.site_id, 'product:' || p.handle, s.catalog_version FROM products p JOIN sites s ON s.id = p.site_id WHERE p.id IN (NEW.product_id) ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; END;
--> statement-breakpoint
DROP TRIGGER `product_translations_update_bump`;
--> statement-breakpoint
CREATE TRIGGER product_translations_update_bump AFTER UPDATE ON product_translations BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = (SELECT site_id FROM products WHERE id = NEW.product_id); INSERT INTO catalog_changes (site_id, scope, version) SELECT p.site_id, 'product:' || p.handle, s.catalog_version FROM products p JOIN sites s ON s.id = p.site_id WHERE p.id IN (NEW.product_id, OLD.product_id) ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; END;
--> statement-breakpoint
DROP TRIGGER `product_variants_delete_bump`;
--> statement-breakpoint
CREATE TRIGGER product_variants_delete_bump AFTER DELETE ON product_variants BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = OLD.site_id; INSERT INTO catalog_changes (site_id, scope, version) SELECT p.site_id, 'product:' || p.handle, s.catalog_version FROM products p JOIN sites s ON s.id = p.site_id WHERE p.id IN (OLD.product_id) ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; END;
--> statement-breakpoint
DROP TRIGGER `product_variants_insert_bump`;
--> statement-breakpoint
CREATE TRIGGER product_variants_insert_bump AFTER INSERT ON product_variants BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = NEW.site_id; INSERT INTO catalog_changes (site_id, scope, version) SELECT p.site_id, 'product:' || p.handle, s.catalog_version FROM products p JOIN sites s ON s.id = p.site_id WHERE p.id IN (NEW.product_id) ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; END;
--> statement-breakpoint
DROP TRIGGER `product_variants_update_bump`;
--> statement-breakpoint
CREATE TRIGGER product_variants_update_bump AFTER UPDATE ON product_variants BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = NEW.site_id; INSERT INTO catalog_changes (site_id, scope, version) SELECT p.site_id, 'product:' || p.handle, s.catalog_version FROM products p JOIN sites s ON s.id = p.site_id WHERE p.id IN (NEW.product_id, OLD.product_id) ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; END;
--> statement-breakpoint
DROP TRIGGER `products_delete_bump`;
--> statement-breakpoint
CREATE TRIGGER products_delete_bump AFTER DELETE ON products BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = OLD.site_id; INSERT INTO catalog_changes (site_id, scope, version) SELECT id, 'product:' || OLD.handle, catalog_version FROM sites WHERE id = OLD.site_id ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; END;
--> statement-breakpoint
DROP TRIGGER `products_insert_bump`;
--> statement-breakpoint
CREATE TRIGGER products_insert_bump AFTER INSERT ON products BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = NEW.site_id; INSERT INTO catalog_changes (site_id, scope, version) SELECT id, 'product:' || NEW.handle, catalog_version FROM sites WHERE id = NEW.site_id ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; END;
--> statement-breakpoint
DROP TRIGGER `products_update_bump`;
--> statement-breakpoint
CREATE TRIGGER products_update_bump AFTER UPDATE ON products BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = NEW.site_id; INSERT INTO catalog_changes (site_id, scope, version) SELECT id, 'product:' || NEW.handle, catalog_version FROM sites WHERE id = NEW.site_id ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; INSERT INTO catalog_changes (site_id, scope, version) SELECT id, 'product:' || OLD.handle, catalog_version FROM sites WHERE id = OLD.site_id ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; END;
--> statement-breakpoint
DROP TRIGGER `site_texts_delete_bump`;
--> statement-breakpoint
CREATE TRIGGER site_texts_delete_bump AFTER DELETE ON site_texts BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = OLD.site_id; INSERT INTO catalog_changes (site_id, scope, version) SELECT id, 'site', catalog_version FROM sites WHERE id = OLD.site_id ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; END;
--> statement-breakpoint
DROP TRIGGER `site_texts_insert_bump`;
--> statement-breakpoint
CREATE TRIGGER site_texts_insert_bump AFTER INSERT ON site_texts BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = NEW.site_id; INSERT INTO catalog_changes (site_id, scope, version) SELECT id, 'site', catalog_version FROM sites WHERE id = NEW.site_id ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; END;
--> statement-breakpoint
DROP TRIGGER `site_texts_update_bump`;
--> statement-breakpoint
CREATE TRIGGER site_texts_update_bump AFTER UPDATE ON site_texts BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = NEW.site_id; INSERT INTO catalog_changes (site_id, scope, version) SELECT id, 'site', catalog_version FROM sites WHERE id = NEW.site_id ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; INSERT INTO catalog_changes (site_id, scope, version) SELECT id, 'site', catalog_version FROM sites WHERE id = OLD.site_id ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; END;
--> statement-breakpoint
DROP TRIGGER `sites_settings_update_bump`;
--> statement-breakpoint
CREATE TRIGGER sites_settings_update_bump AFTER UPDATE OF legal_name, postal_address, contact_email ON sites BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = NEW.id; INSERT INTO catalog_changes (site_id, scope, version) SELECT id, 'site', catalog_version FROM sites WHERE id = NEW.id ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; END;
--> statement-breakpoint
DROP TRIGGER `sites_update_bump`;
--> statement-breakpoint
CREATE TRIGGER sites_update_bump AFTER UPDATE OF name, handle, default_market_id, default_locale, checkout_base_url ON sites BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = NEW.id; INSERT INTO catalog_changes (site_id, scope, version) SELECT id, 'site', catalog_version FROM sites WHERE id = NEW.id ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; END;
--> statement-breakpoint
DROP TRIGGER `variant_prices_delete_bump`;
--> statement-breakpoint
CREATE TRIGGER variant_prices_delete_bump AFTER DELETE ON variant_prices BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = (SELECT site_id FROM product_variants WHERE id = OLD.variant_id); INSERT INTO catalog_changes (site_id, scope, version) SELECT p.site_id, 'product:' || p.handle, s.catalog_version FROM products p JOIN sites s ON s.id = p.site_id WHERE p.id IN (SELECT product_id FROM product_variants WHERE id IN (OLD.variant_id)) ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; END;
--> statement-breakpoint
DROP TRIGGER `variant_prices_insert_bump`;
--> statement-breakpoint
CREATE TRIGGER variant_prices_insert_bump AFTER INSERT ON variant_prices BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = (SELECT site_id FROM product_variants WHERE id = NEW.variant_id); INSERT INTO catalog_changes (site_id, scope, version) SELECT p.site_id, 'product:' || p.handle, s.catalog_version FROM products p JOIN sites s ON s.id = p.site_id WHERE p.id IN (SELECT product_id FROM product_variants WHERE id IN (NEW.variant_id)) ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; END;
--> statement-breakpoint
DROP TRIGGER `variant_prices_update_bump`;
--> statement-breakpoint
CREATE TRIGGER variant_prices_update_bump AFTER UPDATE ON variant_prices BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = (SELECT site_id FROM product_variants WHERE id = NEW.variant_id); INSERT INTO catalog_changes (site_id, scope, version) SELECT p.site_id, 'product:' || p.handle, s.catalog_version FROM products p JOIN sites s ON s.id = p.site_id WHERE p.id IN (SELECT product_id FROM product_variants WHERE id IN (NEW.variant_id, OLD.variant_id)) ON CONFLICT (site_id, scope) DO UPDATE SET version = excluded.version; END;
