-- An image's alt text in the Site's other languages (locale → alt, JSON), where it differs
-- from the alt as written; null keeps one alt text for every language, as before.
ALTER TABLE `collections` ADD `image_alts` text;--> statement-breakpoint
ALTER TABLE `product_images` ADD `alts` text;