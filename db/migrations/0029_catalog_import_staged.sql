CREATE TABLE `catalog_import_staged` (
	`product_id` text PRIMARY KEY NOT NULL,
	`site_id` text NOT NULL,
	`import_id` text NOT NULL,
	`staged_at` integer NOT NULL,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`site_id`) REFERENCES `sites`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `catalog_import_staged_import_idx` ON `catalog_import_staged` (`import_id`);--> statement-breakpoint
CREATE INDEX `catalog_import_staged_site_age_idx` ON `catalog_import_staged` (`site_id`,`staged_at`);