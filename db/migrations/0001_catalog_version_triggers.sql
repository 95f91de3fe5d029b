-- Any change to what the catalog shows bumps sites.catalog_version, so caches and the
-- storefront snapshot version can be checked with one indexed read.
CREATE TRIGGER sites_update_bump AFTER UPDATE OF name, handle, default_market_id, default_locale, checkout_base_url ON sites BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = NEW.id; END;
--> statement-breakpoint
CREATE TRIGGER products_insert_bump AFTER INSERT ON products BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = NEW.site_id; END;
--> statement-breakpoint
CREATE TRIGGER products_update_bump AFTER UPDATE ON products BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = NEW.site_id; END;
--> statement-breakpoint
CREATE TRIGGER products_delete_bump AFTER DELETE ON products BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = OLD.site_id; END;
--> statement-breakpoint
CREATE TRIGGER product_variants_insert_bump AFTER INSERT ON product_variants BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = NEW.site_id; END;
--> statement-breakpoint
CREATE TRIGGER product_variants_update_bump AFTER UPDATE ON product_variants BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = NEW.site_id; END;
--> statement-breakpoint
CREATE TRIGGER product_variants_delete_bump AFTER DELETE ON product_variants BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = OLD.site_id; END;
--> statement-breakpoint
CREATE TRIGGER collections_insert_bump AFTER INSERT ON collections BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = NEW.site_id; END;
--> statement-breakpoint
CREATE TRIGGER collections_update_bump AFTER UPDATE ON collections BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = NEW.site_id; END;
--> statement-breakpoint
CREATE TRIGGER collections_delete_bump AFTER DELETE ON collections BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = OLD.site_id; END;
--> statement-breakpoint
CREATE TRIGGER markets_insert_bump AFTER INSERT ON markets BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = NEW.site_id; END;
--> statement-breakpoint
CREATE TRIGGER markets_update_bump AFTER UPDATE ON markets BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = NEW.site_id; END;
--> statement-breakpoint
CREATE TRIGGER markets_delete_bump AFTER DELETE ON markets BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = OLD.site_id; END;
--> statement-breakpoint
CREATE TRIGGER market_countries_insert_bump AFTER INSERT ON market_countries BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = NEW.site_id; END;
--> statement-breakpoint
CREATE TRIGGER market_countries_update_bump AFTER UPDATE ON market_countries BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = NEW.site_id; END;
--> statement-breakpoint
CREATE TRIGGER market_countries_delete_bump AFTER DELETE ON market_countries BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = OLD.site_id; END;
--> statement-breakpoint
CREATE TRIGGER market_locales_insert_bump AFTER INSERT ON market_locales BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = NEW.site_id; END;
--> statement-breakpoint
CREATE TRIGGER market_locales_update_bump AFTER UPDATE ON market_locales BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = NEW.site_id; END;
--> statement-breakpoint
CREATE TRIGGER market_locales_delete_bump AFTER DELETE ON market_locales BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = OLD.site_id; END;
--> statement-breakpoint
CREATE TRIGGER product_translations_insert_bump AFTER INSERT ON product_translations BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = (SELECT site_id FROM products WHERE id = NEW.product_id); END;
--> statement-breakpoint
CREATE TRIGGER product_translations_update_bump AFTER UPDATE ON product_translations BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = (SELECT site_id FROM products WHERE id = NEW.product_id); END;
--> statement-breakpoint
CREATE TRIGGER product_translations_delete_bump AFTER DELETE ON product_translations BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = (SELECT site_id FROM products WHERE id = OLD.product_id); END;
--> statement-breakpoint
CREATE TRIGGER product_images_insert_bump AFTER INSERT ON product_images BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = (SELECT site_id FROM products WHERE id = NEW.product_id); END;
--> statement-breakpoint
CREATE TRIGGER product_images_update_bump AFTER UPDATE ON product_images BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = (SELECT site_id FROM products WHERE id = NEW.product_id); END;
--> statement-breakpoint
CREATE TRIGGER product_images_delete_bump AFTER DELETE ON product_images BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = (SELECT site_id FROM products WHERE id = OLD.product_id); END;
--> statement-breakpoint
CREATE TRIGGER bundles_insert_bump AFTER INSERT ON bundles BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = (SELECT site_id FROM products WHERE id = NEW.product_id); END;
--> statement-breakpoint
CREATE TRIGGER bundles_update_bump AFTER UPDATE ON bundles BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = (SELECT site_id FROM products WHERE id = NEW.product_id); END;
--> statement-breakpoint
CREATE TRIGGER bundles_delete_bump AFTER DELETE ON bundles BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = (SELECT site_id FROM products WHERE id = OLD.product_id); END;
--> statement-breakpoint
CREATE TRIGGER variant_prices_insert_bump AFTER INSERT ON variant_prices BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = (SELECT site_id FROM product_variants WHERE id = NEW.variant_id); END;
--> statement-breakpoint
CREATE TRIGGER variant_prices_update_bump AFTER UPDATE ON variant_prices BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = (SELECT site_id FROM product_variants WHERE id = NEW.variant_id); END;
--> statement-breakpoint
CREATE TRIGGER variant_prices_delete_bump AFTER DELETE ON variant_prices BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = (SELECT site_id FROM product_variants WHERE id = OLD.variant_id); END;
--> statement-breakpoint
CREATE TRIGGER inventory_levels_insert_bump AFTER INSERT ON inventory_levels BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = (SELECT site_id FROM product_variants WHERE id = NEW.variant_id); END;
--> statement-breakpoint
CREATE TRIGGER inventory_levels_update_bump AFTER UPDATE ON inventory_levels BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = (SELECT site_id FROM product_variants WHERE id = NEW.variant_id); END;
--> statement-breakpoint
CREATE TRIGGER inventory_levels_delete_bump AFTER DELETE ON inventory_levels BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = (SELECT site_id FROM product_variants WHERE id = OLD.variant_id); END;
--> statement-breakpoint
CREATE TRIGGER bundle_items_insert_bump AFTER INSERT ON bundle_items BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = (SELECT p.site_id FROM bundles b JOIN products p ON p.id = b.product_id WHERE b.id = NEW.bundle_id); END;
--> statement-breakpoint
CREATE TRIGGER bundle_items_update_bump AFTER UPDATE ON bundle_items BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = (SELECT p.site_id FROM bundles b JOIN products p ON p.id = b.product_id WHERE b.id = NEW.bundle_id); END;
--> statement-breakpoint
CREATE TRIGGER bundle_items_delete_bump AFTER DELETE ON bundle_items BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = (SELECT p.site_id FROM bundles b JOIN products p ON p.id = b.product_id WHERE b.id = OLD.bundle_id); END;
--> statement-breakpoint
CREATE TRIGGER bundle_prices_insert_bump AFTER INSERT ON bundle_prices BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = (SELECT p.site_id FROM bundles b JOIN products p ON p.id = b.product_id WHERE b.id = NEW.bundle_id); END;
--> statement-breakpoint
CREATE TRIGGER bundle_prices_update_bump AFTER UPDATE ON bundle_prices BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = (SELECT p.site_id FROM bundles b JOIN products p ON p.id = b.product_id WHERE b.id = NEW.bundle_id); END;
--> statement-breakpoint
CREATE TRIGGER bundle_prices_delete_bump AFTER DELETE ON bundle_prices BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = (SELECT p.site_id FROM bundles b JOIN products p ON p.id = b.product_id WHERE b.id = OLD.bundle_id); END;
--> statement-breakpoint
CREATE TRIGGER collection_translations_insert_bump AFTER INSERT ON collection_translations BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = (SELECT site_id FROM collections WHERE id = NEW.collection_id); END;
--> statement-breakpoint
CREATE TRIGGER collection_translations_update_bump AFTER UPDATE ON collection_translations BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = (SELECT site_id FROM collections WHERE id = NEW.collection_id); END;
--> statement-breakpoint
CREATE TRIGGER collection_translations_delete_bump AFTER DELETE ON collection_translations BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = (SELECT site_id FROM collections WHERE id = OLD.collection_id); END;
--> statement-breakpoint
CREATE TRIGGER collection_products_insert_bump AFTER INSERT ON collection_products BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = (SELECT site_id FROM collections WHERE id = NEW.collection_id); END;
--> statement-breakpoint
CREATE TRIGGER collection_products_update_bump AFTER UPDATE ON collection_products BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = (SELECT site_id FROM collections WHERE id = NEW.collection_id); END;
--> statement-breakpoint
CREATE TRIGGER collection_products_delete_bump AFTER DELETE ON collection_products BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = (SELECT site_id FROM collections WHERE id = OLD.collection_id); END;
