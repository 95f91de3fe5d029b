ALTER TABLE `collections` ADD `rules` text;--> statement-breakpoint
ALTER TABLE `products` ADD `vendor` text;--> statement-breakpoint
ALTER TABLE `products` ADD `product_type` text;--> statement-breakpoint
ALTER TABLE `products` ADD `tags` text;