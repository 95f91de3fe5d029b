-- Prepared inserts wrote "no value" in JSON columns as the text 'null'; it is SQL NULL now.
UPDATE `checkout_sessions` SET `shipping_address` = NULL WHERE `shipping_address` = 'null';
--> statement-breakpoint
UPDATE `checkout_sessions` SET `billing_address` = NULL WHERE `billing_address` = 'null';
--> statement-breakpoint
UPDATE `checkout_sessions` SET `delivery_option` = NULL WHERE `delivery_option` = 'null';
--> statement-breakpoint
UPDATE `checkout_sessions` SET `payment` = NULL WHERE `payment` = 'null';
