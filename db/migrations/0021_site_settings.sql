CREATE TABLE `site_texts` (
	`site_id` text NOT NULL,
	`locale` text NOT NULL,
	`key` text NOT NULL,
	`body` text NOT NULL,
	PRIMARY KEY(`site_id`, `locale`, `key`),
	FOREIGN KEY (`site_id`) REFERENCES `sites`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
ALTER TABLE `sites` ADD `legal_name` text;--> statement-breakpoint
ALTER TABLE `sites` ADD `postal_address` text;--> statement-breakpoint
ALTER TABLE `sites` ADD `contact_email` text;