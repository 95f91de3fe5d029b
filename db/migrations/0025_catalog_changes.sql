CREATE TABLE `catalog_changes` (
	`site_id` text NOT NULL,
	`scope` text NOT NULL,
	`version` integer NOT NULL,
	PRIMARY KEY(`site_id`, `scope`),
	FOREIGN KEY (`site_id`) REFERENCES `sites`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `catalog_changes_site_version_idx` ON `catalog_changes` (`site_id`,`version`);