ALTER TABLE `checkout_session_lines` ADD `bundle_id` text;--> statement-breakpoint
ALTER TABLE `checkout_session_lines` ADD `bundle_quantity` integer;