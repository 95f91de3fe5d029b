CREATE TABLE `credentials` (
	`id` text PRIMARY KEY NOT NULL,
	`site_id` text NOT NULL,
	`scope` text NOT NULL,
	`token_hash` text NOT NULL,
	`display_prefix` text NOT NULL,
	`label` text,
	`created_at` integer NOT NULL,
	`revoked_at` integer,
	FOREIGN KEY (`site_id`) REFERENCES `sites`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `credentials_token_hash_uq` ON `credentials` (`token_hash`);--> statement-breakpoint
CREATE INDEX `credentials_site_idx` ON `credentials` (`site_id`);--> statement-breakpoint
CREATE TABLE `market_countries` (
	`site_id` text NOT NULL,
	`country` text NOT NULL,
	`market_id` text NOT NULL,
	`position` integer NOT NULL,
	PRIMARY KEY(`site_id`, `country`),
	FOREIGN KEY (`site_id`) REFERENCES `sites`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `market_locales` (
	`site_id` text NOT NULL,
	`market_id` text NOT NULL,
	`locale` text NOT NULL,
	`position` integer NOT NULL,
	PRIMARY KEY(`site_id`, `market_id`, `locale`),
	FOREIGN KEY (`site_id`) REFERENCES `sites`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `markets` (
	`site_id` text NOT NULL,
	`id` text NOT NULL,
	`name` text NOT NULL,
	`currency` text NOT NULL,
	`default_locale` text NOT NULL,
	`tax_inclusive` integer NOT NULL,
	`tax_rate_bp` integer DEFAULT 0 NOT NULL,
	`position` integer NOT NULL,
	PRIMARY KEY(`site_id`, `id`),
	FOREIGN KEY (`site_id`) REFERENCES `sites`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `notification_flows` (
	`id` text PRIMARY KEY NOT NULL,
	`site_id` text NOT NULL,
	`handle` text NOT NULL,
	`kind` text NOT NULL,
	`channel` text NOT NULL,
	`enabled` integer NOT NULL,
	`is_default` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`site_id`) REFERENCES `sites`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `notification_flows_site_handle_uq` ON `notification_flows` (`site_id`,`handle`);--> statement-breakpoint
CREATE TABLE `sites` (
	`id` text PRIMARY KEY NOT NULL,
	`handle` text NOT NULL,
	`name` text NOT NULL,
	`default_market_id` text NOT NULL,
	`default_locale` text NOT NULL,
	`checkout_base_url` text NOT NULL,
	`catalog_version` integer DEFAULT 1 NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sites_handle_uq` ON `sites` (`handle`);--> statement-breakpoint
CREATE TABLE `bundle_items` (
	`bundle_id` text NOT NULL,
	`position` integer NOT NULL,
	`variant_id` text NOT NULL,
	`quantity` integer NOT NULL,
	PRIMARY KEY(`bundle_id`, `position`),
	FOREIGN KEY (`bundle_id`) REFERENCES `bundles`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`variant_id`) REFERENCES `product_variants`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `bundle_prices` (
	`bundle_id` text NOT NULL,
	`market_id` text NOT NULL,
	`amount` integer NOT NULL,
	PRIMARY KEY(`bundle_id`, `market_id`),
	FOREIGN KEY (`bundle_id`) REFERENCES `bundles`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `bundles` (
	`id` text PRIMARY KEY NOT NULL,
	`product_id` text NOT NULL,
	`title` text NOT NULL,
	`position` integer NOT NULL,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `bundles_product_idx` ON `bundles` (`product_id`,`position`);--> statement-breakpoint
CREATE TABLE `collection_products` (
	`collection_id` text NOT NULL,
	`product_id` text NOT NULL,
	`position` integer NOT NULL,
	PRIMARY KEY(`collection_id`, `product_id`),
	FOREIGN KEY (`collection_id`) REFERENCES `collections`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `collection_products_order_uq` ON `collection_products` (`collection_id`,`position`);--> statement-breakpoint
CREATE TABLE `collection_translations` (
	`collection_id` text NOT NULL,
	`locale` text NOT NULL,
	`title` text NOT NULL,
	`description` text NOT NULL,
	PRIMARY KEY(`collection_id`, `locale`),
	FOREIGN KEY (`collection_id`) REFERENCES `collections`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `collections` (
	`id` text PRIMARY KEY NOT NULL,
	`site_id` text NOT NULL,
	`handle` text NOT NULL,
	`status` text DEFAULT 'published' NOT NULL,
	`position` integer NOT NULL,
	`image_url` text,
	`image_alt` text,
	`image_width` integer,
	`image_height` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`site_id`) REFERENCES `sites`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `collections_site_handle_uq` ON `collections` (`site_id`,`handle`);--> statement-breakpoint
CREATE INDEX `collections_site_position_idx` ON `collections` (`site_id`,`position`,`id`);--> statement-breakpoint
CREATE TABLE `inventory_levels` (
	`variant_id` text PRIMARY KEY NOT NULL,
	`quantity` integer NOT NULL,
	`low_stock_threshold` integer DEFAULT 5 NOT NULL,
	`policy` text DEFAULT 'deny' NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`variant_id`) REFERENCES `product_variants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `product_images` (
	`product_id` text NOT NULL,
	`position` integer NOT NULL,
	`url` text NOT NULL,
	`alt` text NOT NULL,
	`width` integer NOT NULL,
	`height` integer NOT NULL,
	PRIMARY KEY(`product_id`, `position`),
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `product_translations` (
	`product_id` text NOT NULL,
	`locale` text NOT NULL,
	`title` text NOT NULL,
	`description` text NOT NULL,
	`seo_title` text,
	`seo_description` text,
	PRIMARY KEY(`product_id`, `locale`),
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `product_variants` (
	`id` text PRIMARY KEY NOT NULL,
	`site_id` text NOT NULL,
	`product_id` text NOT NULL,
	`sku` text NOT NULL,
	`title` text NOT NULL,
	`options` text NOT NULL,
	`position` integer NOT NULL,
	FOREIGN KEY (`site_id`) REFERENCES `sites`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `product_variants_product_pos_idx` ON `product_variants` (`product_id`,`position`);--> statement-breakpoint
CREATE INDEX `product_variants_site_id_idx` ON `product_variants` (`site_id`,`id`);--> statement-breakpoint
CREATE TABLE `products` (
	`id` text PRIMARY KEY NOT NULL,
	`site_id` text NOT NULL,
	`handle` text NOT NULL,
	`status` text NOT NULL,
	`options` text NOT NULL,
	`featured_position` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`site_id`) REFERENCES `sites`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `products_site_handle_uq` ON `products` (`site_id`,`handle`);--> statement-breakpoint
CREATE INDEX `products_site_status_handle_idx` ON `products` (`site_id`,`status`,`handle`);--> statement-breakpoint
CREATE INDEX `products_site_featured_idx` ON `products` (`site_id`,`featured_position`);--> statement-breakpoint
CREATE TABLE `variant_prices` (
	`variant_id` text NOT NULL,
	`market_id` text NOT NULL,
	`amount` integer NOT NULL,
	`compare_at_amount` integer,
	PRIMARY KEY(`variant_id`, `market_id`),
	FOREIGN KEY (`variant_id`) REFERENCES `product_variants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `consents` (
	`id` text PRIMARY KEY NOT NULL,
	`site_id` text NOT NULL,
	`purpose` text NOT NULL,
	`email` text NOT NULL,
	`text` text NOT NULL,
	`text_version` text NOT NULL,
	`text_hash` text NOT NULL,
	`locale` text,
	`source` text,
	`credential_id` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`site_id`) REFERENCES `sites`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`credential_id`) REFERENCES `credentials`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `consents_site_email_idx` ON `consents` (`site_id`,`email`);--> statement-breakpoint
CREATE TABLE `newsletter_subscriptions` (
	`id` text PRIMARY KEY NOT NULL,
	`site_id` text NOT NULL,
	`email` text NOT NULL,
	`status` text NOT NULL,
	`consent_id` text NOT NULL,
	`locale` text,
	`market_id` text,
	`source` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`site_id`) REFERENCES `sites`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`consent_id`) REFERENCES `consents`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `newsletter_subscriptions_once_uq` ON `newsletter_subscriptions` (`site_id`,`email`);--> statement-breakpoint
CREATE TABLE `outbox_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`site_id` text NOT NULL,
	`topic` text NOT NULL,
	`aggregate_id` text NOT NULL,
	`payload` text NOT NULL,
	`created_at` integer NOT NULL,
	`dispatched_at` integer,
	`attempts` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`site_id`) REFERENCES `sites`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `outbox_messages_pending_idx` ON `outbox_messages` (`dispatched_at`,`id`);--> statement-breakpoint
CREATE TABLE `stock_subscriptions` (
	`id` text PRIMARY KEY NOT NULL,
	`site_id` text NOT NULL,
	`variant_id` text NOT NULL,
	`flow_id` text NOT NULL,
	`email` text NOT NULL,
	`status` text NOT NULL,
	`consent_id` text NOT NULL,
	`locale` text,
	`market_id` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`site_id`) REFERENCES `sites`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`variant_id`) REFERENCES `product_variants`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`flow_id`) REFERENCES `notification_flows`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`consent_id`) REFERENCES `consents`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `stock_subscriptions_once_uq` ON `stock_subscriptions` (`site_id`,`variant_id`,`flow_id`,`email`);--> statement-breakpoint
CREATE TABLE `address_book` (
	`id` text PRIMARY KEY NOT NULL,
	`country` text NOT NULL,
	`street` text NOT NULL,
	`street_key` text NOT NULL,
	`postal_code` text NOT NULL,
	`city` text NOT NULL,
	`region` text
);
--> statement-breakpoint
CREATE INDEX `address_book_country_street_idx` ON `address_book` (`country`,`street_key`);--> statement-breakpoint
CREATE INDEX `address_book_country_postal_idx` ON `address_book` (`country`,`postal_code`);--> statement-breakpoint
CREATE TABLE `checkout_session_lines` (
	`session_id` text NOT NULL,
	`position` integer NOT NULL,
	`variant_id` text NOT NULL,
	`product_handle` text NOT NULL,
	`title` text NOT NULL,
	`quantity` integer NOT NULL,
	`unit_price` integer NOT NULL,
	`total` integer NOT NULL,
	PRIMARY KEY(`session_id`, `position`),
	FOREIGN KEY (`session_id`) REFERENCES `checkout_sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `checkout_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`site_id` text NOT NULL,
	`credential_id` text NOT NULL,
	`status` text NOT NULL,
	`market_id` text NOT NULL,
	`locale` text NOT NULL,
	`currency` text NOT NULL,
	`email` text,
	`phone` text,
	`shipping_address` text,
	`billing_address` text,
	`delivery_option` text,
	`payment` text,
	`subtotal` integer NOT NULL,
	`shipping` integer,
	`tax` integer NOT NULL,
	`total` integer NOT NULL,
	`revision` integer DEFAULT 1 NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`site_id`) REFERENCES `sites`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`credential_id`) REFERENCES `credentials`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `checkout_sessions_site_idx` ON `checkout_sessions` (`site_id`,`id`);--> statement-breakpoint
CREATE TABLE `pickup_points` (
	`id` text PRIMARY KEY NOT NULL,
	`country` text NOT NULL,
	`carrier` text NOT NULL,
	`name` text NOT NULL,
	`line1` text NOT NULL,
	`postal_code` text NOT NULL,
	`city` text NOT NULL,
	`opening_hours` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `pickup_points_country_postal_idx` ON `pickup_points` (`country`,`postal_code`);--> statement-breakpoint
CREATE TABLE `shipping_rates` (
	`id` text PRIMARY KEY NOT NULL,
	`site_id` text NOT NULL,
	`market_id` text NOT NULL,
	`kind` text NOT NULL,
	`title` text NOT NULL,
	`carrier` text NOT NULL,
	`amount` integer NOT NULL,
	`min_days` integer NOT NULL,
	`max_days` integer NOT NULL,
	`position` integer NOT NULL,
	FOREIGN KEY (`site_id`) REFERENCES `sites`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `shipping_rates_market_idx` ON `shipping_rates` (`site_id`,`market_id`,`position`);--> statement-breakpoint
CREATE TABLE `analytics_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`site_id` text NOT NULL,
	`day` text NOT NULL,
	`type` text NOT NULL,
	`occurred_at` integer NOT NULL,
	`received_at` integer NOT NULL,
	`anonymous_id` text NOT NULL,
	`payload` text NOT NULL,
	FOREIGN KEY (`site_id`) REFERENCES `sites`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `analytics_events_site_day_idx` ON `analytics_events` (`site_id`,`day`,`type`);--> statement-breakpoint
CREATE TABLE `idempotency_keys` (
	`credential_id` text NOT NULL,
	`key` text NOT NULL,
	`method` text NOT NULL,
	`path` text NOT NULL,
	`request_hash` text NOT NULL,
	`state` text NOT NULL,
	`response_status` integer,
	`response_headers` text,
	`response_body` text,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	PRIMARY KEY(`credential_id`, `key`)
);
--> statement-breakpoint
CREATE INDEX `idempotency_keys_expires_idx` ON `idempotency_keys` (`expires_at`);--> statement-breakpoint
CREATE TABLE `rate_limit_counters` (
	`bucket` text NOT NULL,
	`window_start` integer NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`bucket`, `window_start`)
);
--> statement-breakpoint
CREATE INDEX `rate_limit_counters_window_idx` ON `rate_limit_counters` (`window_start`);