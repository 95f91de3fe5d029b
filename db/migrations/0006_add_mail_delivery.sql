CREATE TABLE `subscription_tokens` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`site_id` text NOT NULL,
	`purpose` text NOT NULL,
	`kind` text NOT NULL,
	`subscription_id` text NOT NULL,
	`consent_id` text NOT NULL,
	`expires_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`site_id`) REFERENCES `sites`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`consent_id`) REFERENCES `consents`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `subscription_tokens_subscription_idx` ON `subscription_tokens` (`subscription_id`);--> statement-breakpoint
DROP INDEX `outbox_messages_pending_idx`;--> statement-breakpoint
ALTER TABLE `outbox_messages` ADD `channel` text DEFAULT 'email' NOT NULL;--> statement-breakpoint
ALTER TABLE `outbox_messages` ADD `status` text DEFAULT 'pending' NOT NULL;--> statement-breakpoint
ALTER TABLE `outbox_messages` ADD `next_attempt_at` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `outbox_messages` ADD `lease_until` integer;--> statement-breakpoint
ALTER TABLE `outbox_messages` ADD `claimed_by` text;--> statement-breakpoint
ALTER TABLE `outbox_messages` ADD `last_error` text;--> statement-breakpoint
CREATE INDEX `outbox_messages_due_idx` ON `outbox_messages` (`channel`,`status`,`next_attempt_at`,`id`);--> statement-breakpoint
ALTER TABLE `consents` ADD `confirmed_at` integer;--> statement-breakpoint
ALTER TABLE `consents` ADD `withdrawn_at` integer;--> statement-breakpoint
ALTER TABLE `consents` ADD `withdrawn_via` text;--> statement-breakpoint
CREATE INDEX `stock_subscriptions_variant_status_idx` ON `stock_subscriptions` (`variant_id`,`status`);--> statement-breakpoint
-- Messages handed out before this migration were sent.
UPDATE `outbox_messages` SET `status` = 'sent' WHERE `dispatched_at` IS NOT NULL;
--> statement-breakpoint
-- Back in stock, decided in the database so that no path can forget it: a stock command, a
-- catalog import or an UPDATE typed into sqlite3 all count. A variant is purchasable when its
-- product is published and it has a stock level that sells: policy `continue` or `preorder`,
-- or a quantity above 0 (lib/commerce/availability.ts says the same in TypeScript). When it
-- turns purchasable, every ACTIVE stock subscription of it gets exactly one message in the
-- outbox (on its flow's channel) and becomes `notified`, in the same transaction; pending
-- (unconfirmed) ones get nothing. The text is rendered when the message is sent.
CREATE TRIGGER inventory_levels_update_back_in_stock AFTER UPDATE OF quantity, policy ON inventory_levels
WHEN NOT (OLD.policy <> 'deny' OR OLD.quantity > 0) AND (NEW.policy <> 'deny' OR NEW.quantity > 0)
BEGIN
  INSERT INTO `outbox_messages` (`site_id`, `topic`, `aggregate_id`, `payload`, `channel`, `created_at`, `next_attempt_at`)
  SELECT s.site_id, 'stock_subscription.back_in_stock', s.id, json_object('subscriptionId', s.id, 'siteId', s.site_id, 'email', s.email, 'locale', s.locale, 'marketId', s.market_id, 'variantId', s.variant_id, 'consentId', s.consent_id, 'flow', json_object('id', f.id, 'handle', f.handle, 'channel', f.channel)), f.channel, CAST(ROUND((julianday('now') - 2440587.5) * 86400000) AS INTEGER), CAST(ROUND((julianday('now') - 2440587.5) * 86400000) AS INTEGER)
  FROM stock_subscriptions s
  JOIN notification_flows f ON f.id = s.flow_id
  JOIN product_variants v ON v.id = s.variant_id
  JOIN products p ON p.id = v.product_id
  WHERE s.variant_id = NEW.variant_id AND s.status = 'active' AND p.status = 'published'
  ORDER BY s.created_at, s.id;
  UPDATE stock_subscriptions SET status = 'notified'
  WHERE variant_id = NEW.variant_id AND status = 'active'
    AND EXISTS (SELECT 1 FROM product_variants v JOIN products p ON p.id = v.product_id WHERE v.id = NEW.variant_id AND p.status = 'published');
END;
--> statement-breakpoint
-- A variant without a stock level does not sell; its first level may.
CREATE TRIGGER inventory_levels_insert_back_in_stock AFTER INSERT ON inventory_levels
WHEN NEW.policy <> 'deny' OR NEW.quantity > 0
BEGIN
  INSERT INTO `outbox_messages` (`site_id`, `topic`, `aggregate_id`, `payload`, `channel`, `created_at`, `next_attempt_at`)
  SELECT s.site_id, 'stock_subscription.back_in_stock', s.id, json_object('subscriptionId', s.id, 'siteId', s.site_id, 'email', s.email, 'locale', s.locale, 'marketId', s.market_id, 'variantId', s.variant_id, 'consentId', s.consent_id, 'flow', json_object('id', f.id, 'handle', f.handle, 'channel', f.channel)), f.channel, CAST(ROUND((julianday('now') - 2440587.5) * 86400000) AS INTEGER), CAST(ROUND((julianday('now') - 2440587.5) * 86400000) AS INTEGER)
  FROM stock_subscriptions s
  JOIN notification_flows f ON f.id = s.flow_id
  JOIN product_variants v ON v.id = s.variant_id
  JOIN products p ON p.id = v.product_id
  WHERE s.variant_id = NEW.variant_id AND s.status = 'active' AND p.status = 'published'
  ORDER BY s.created_at, s.id;
  UPDATE stock_subscriptions SET status = 'notified'
  WHERE variant_id = NEW.variant_id AND status = 'active'
    AND EXISTS (SELECT 1 FROM product_variants v JOIN products p ON p.id = v.product_id WHERE v.id = NEW.variant_id AND p.status = 'published');
END;
--> statement-breakpoint
-- Publishing a product (again) makes its variants that have stock purchasable.
CREATE TRIGGER products_publish_back_in_stock AFTER UPDATE OF status ON products
WHEN OLD.status <> 'published' AND NEW.status = 'published'
BEGIN
  INSERT INTO `outbox_messages` (`site_id`, `topic`, `aggregate_id`, `payload`, `channel`, `created_at`, `next_attempt_at`)
  SELECT s.site_id, 'stock_subscription.back_in_stock', s.id, json_object('subscriptionId', s.id, 'siteId', s.site_id, 'email', s.email, 'locale', s.locale, 'marketId', s.market_id, 'variantId', s.variant_id, 'consentId', s.consent_id, 'flow', json_object('id', f.id, 'handle', f.handle, 'channel', f.channel)), f.channel, CAST(ROUND((julianday('now') - 2440587.5) * 86400000) AS INTEGER), CAST(ROUND((julianday('now') - 2440587.5) * 86400000) AS INTEGER)
  FROM stock_subscriptions s
  JOIN notification_flows f ON f.id = s.flow_id
  JOIN product_variants v ON v.id = s.variant_id
  JOIN inventory_levels il ON il.variant_id = v.id
  WHERE v.product_id = NEW.id AND s.status = 'active' AND (il.policy <> 'deny' OR il.quantity > 0)
  ORDER BY s.created_at, s.id;
  UPDATE stock_subscriptions SET status = 'notified'
  WHERE status = 'active' AND variant_id IN (
    SELECT v.id FROM product_variants v JOIN inventory_levels il ON il.variant_id = v.id WHERE v.product_id = NEW.id AND (il.policy <> 'deny' OR il.quantity > 0)
  );
END;
--> statement-breakpoint
-- A subscription confirmed after its variant came back would otherwise wait for the next
-- restock: it is told at once. (Recursive triggers are off, so the inner UPDATE fires nothing.)
CREATE TRIGGER stock_subscriptions_confirm_back_in_stock AFTER UPDATE OF status ON stock_subscriptions
WHEN OLD.status = 'pending_confirmation' AND NEW.status = 'active'
  AND EXISTS (
    SELECT 1 FROM product_variants v JOIN products p ON p.id = v.product_id JOIN inventory_levels il ON il.variant_id = v.id
    WHERE v.id = NEW.variant_id AND p.status = 'published' AND (il.policy <> 'deny' OR il.quantity > 0)
  )
BEGIN
  INSERT INTO `outbox_messages` (`site_id`, `topic`, `aggregate_id`, `payload`, `channel`, `created_at`, `next_attempt_at`)
  SELECT s.site_id, 'stock_subscription.back_in_stock', s.id, json_object('subscriptionId', s.id, 'siteId', s.site_id, 'email', s.email, 'locale', s.locale, 'marketId', s.market_id, 'variantId', s.variant_id, 'consentId', s.consent_id, 'flow', json_object('id', f.id, 'handle', f.handle, 'channel', f.channel)), f.channel, CAST(ROUND((julianday('now') - 2440587.5) * 86400000) AS INTEGER), CAST(ROUND((julianday('now') - 2440587.5) * 86400000) AS INTEGER)
  FROM stock_subscriptions s
  JOIN notification_flows f ON f.id = s.flow_id
  WHERE s.id = NEW.id;
  UPDATE stock_subscriptions SET status = 'notified' WHERE id = NEW.id;
END;
