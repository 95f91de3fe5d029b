CREATE TABLE `order_lines` (
	`order_id` text NOT NULL,
	`position` integer NOT NULL,
	`variant_id` text NOT NULL,
	`sku` text,
	`product_handle` text NOT NULL,
	`title` text NOT NULL,
	`quantity` integer NOT NULL,
	`unit_price` integer NOT NULL,
	`total` integer NOT NULL,
	`oversold_quantity` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`order_id`, `position`),
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `orders` (
	`id` text PRIMARY KEY NOT NULL,
	`site_id` text NOT NULL,
	`seq` integer NOT NULL,
	`number` text NOT NULL,
	`session_id` text NOT NULL,
	`provider` text NOT NULL,
	`payment_reference` text NOT NULL,
	`market_id` text NOT NULL,
	`locale` text NOT NULL,
	`currency` text NOT NULL,
	`email` text,
	`phone` text,
	`shipping_address` text,
	`billing_address` text,
	`delivery_option` text,
	`subtotal` integer NOT NULL,
	`shipping` integer,
	`tax` integer NOT NULL,
	`total` integer NOT NULL,
	`oversold` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`site_id`) REFERENCES `sites`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `orders_site_seq_uq` ON `orders` (`site_id`,`seq`);--> statement-breakpoint
CREATE UNIQUE INDEX `orders_session_uq` ON `orders` (`session_id`);--> statement-breakpoint
CREATE INDEX `orders_site_created_idx` ON `orders` (`site_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `payment_events` (
	`provider` text NOT NULL,
	`event_id` text NOT NULL,
	`type` text NOT NULL,
	`session_id` text,
	`payment_reference` text,
	`outcome` text NOT NULL,
	`order_id` text,
	`received_at` integer NOT NULL,
	PRIMARY KEY(`provider`, `event_id`)
);
