ALTER TABLE `sites` ADD `stock_version` integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
-- A stock level moves the catalog version only when the variant's status changes: every
-- answer shows statuses, none a quantity, so a stock sync that leaves statuses alone keeps
-- every cached answer and kept product page. Every change moves stock_version, which
-- checkout's memo of quantities keys on. The CASE is availabilityStatus()
-- (lib/commerce/availability.ts); test/stock-version.test.ts holds the two together.
DROP TRIGGER `inventory_levels_update_bump`;
--> statement-breakpoint
CREATE TRIGGER inventory_levels_update_bump AFTER UPDATE ON inventory_levels BEGIN UPDATE sites SET stock_version = stock_version + 1, catalog_version = catalog_version + ((CASE WHEN OLD.policy = 'continue' THEN 'in_stock' WHEN OLD.quantity > OLD.low_stock_threshold THEN 'in_stock' WHEN OLD.quantity > 0 THEN 'low_stock' WHEN OLD.policy = 'preorder' THEN 'preorder' ELSE 'out_of_stock' END) IS NOT (CASE WHEN NEW.policy = 'continue' THEN 'in_stock' WHEN NEW.quantity > NEW.low_stock_threshold THEN 'in_stock' WHEN NEW.quantity > 0 THEN 'low_stock' WHEN NEW.policy = 'preorder' THEN 'preorder' ELSE 'out_of_stock' END) OR OLD.variant_id IS NOT NEW.variant_id) WHERE id IN (SELECT site_id FROM product_variants WHERE id IN (OLD.variant_id, NEW.variant_id)); END;
--> statement-breakpoint
DROP TRIGGER `inventory_levels_insert_bump`;
--> statement-breakpoint
CREATE TRIGGER inventory_levels_insert_bump AFTER INSERT ON inventory_levels BEGIN UPDATE sites SET catalog_version = catalog_version + 1, stock_version = stock_version + 1 WHERE id = (SELECT site_id FROM product_variants WHERE id = NEW.variant_id); END;
--> statement-breakpoint
DROP TRIGGER `inventory_levels_delete_bump`;
--> statement-breakpoint
CREATE TRIGGER inventory_levels_delete_bump AFTER DELETE ON inventory_levels BEGIN UPDATE sites SET catalog_version = catalog_version + 1, stock_version = stock_version + 1 WHERE id = (SELECT site_id FROM product_variants WHERE id = OLD.variant_id); END;
