CREATE TABLE `stored_pages` (
	`site_id` text NOT NULL,
	`origin` text NOT NULL,
	`market` text NOT NULL,
	`locale` text NOT NULL,
	`handle` text NOT NULL,
	`build` text NOT NULL,
	`catalog_version` integer NOT NULL,
	`stored_at` integer NOT NULL,
	`policy` text NOT NULL,
	`html` blob NOT NULL,
	PRIMARY KEY(`site_id`, `origin`, `market`, `locale`, `handle`),
	FOREIGN KEY (`site_id`) REFERENCES `sites`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `stored_pages_build_idx` ON `stored_pages` (`site_id`,`build`);