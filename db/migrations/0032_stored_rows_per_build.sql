-- Stored answers and pages keyed by build as well (each build its own rows while two serve).
-- Dropped and made again rather than copied: a row answers only for the build that made it,
-- and a migration ships with a new build; copying a large stored_pages would hold the write
-- lock for long. The previous build's writes fail meanwhile (their conflict target is the old
-- key), which costs it only building again.
DROP TABLE `stored_answers`;--> statement-breakpoint
CREATE TABLE `stored_answers` (
	`site_id` text NOT NULL,
	`origin` text NOT NULL,
	`market` text NOT NULL,
	`locale` text NOT NULL,
	`handle` text NOT NULL,
	`build` text NOT NULL,
	`valid_at` integer NOT NULL,
	`scopes` text NOT NULL,
	`etag` text NOT NULL,
	`stored_at` integer NOT NULL,
	`body` text NOT NULL,
	PRIMARY KEY(`site_id`, `origin`, `market`, `locale`, `handle`, `build`),
	FOREIGN KEY (`site_id`) REFERENCES `sites`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `stored_answers_build_idx` ON `stored_answers` (`site_id`,`build`);--> statement-breakpoint
DROP TABLE `stored_pages`;--> statement-breakpoint
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
	`reads` text,
	PRIMARY KEY(`site_id`, `origin`, `market`, `locale`, `handle`, `build`),
	FOREIGN KEY (`site_id`) REFERENCES `sites`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `stored_pages_build_idx` ON `stored_pages` (`site_id`,`build`);