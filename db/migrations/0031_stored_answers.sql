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
	PRIMARY KEY(`site_id`, `origin`, `market`, `locale`, `handle`),
	FOREIGN KEY (`site_id`) REFERENCES `sites`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `stored_answers_build_idx` ON `stored_answers` (`site_id`,`build`);