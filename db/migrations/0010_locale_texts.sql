CREATE TABLE `market_translations` (
	`site_id` text NOT NULL,
	`market_id` text NOT NULL,
	`locale` text NOT NULL,
	`name` text NOT NULL,
	PRIMARY KEY(`site_id`, `market_id`, `locale`),
	FOREIGN KEY (`site_id`) REFERENCES `sites`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
ALTER TABLE `product_translations` ADD `options` text;--> statement-breakpoint
-- Market names are catalog texts: a change moves the catalog version like markets' own rows do.
CREATE TRIGGER market_translations_insert_bump AFTER INSERT ON market_translations BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = NEW.site_id; END;
--> statement-breakpoint
CREATE TRIGGER market_translations_update_bump AFTER UPDATE ON market_translations BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = NEW.site_id; END;
--> statement-breakpoint
CREATE TRIGGER market_translations_delete_bump AFTER DELETE ON market_translations BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = OLD.site_id; END;
