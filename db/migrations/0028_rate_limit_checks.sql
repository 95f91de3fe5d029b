-- A write that names a shopper may claim the shopper's write budget in its own batch (one
-- request to a database over a network instead of two): one more request on the shopper's
-- counter of rate_limit_counters, and then this check, which fails the batch — and so undoes
-- the write and the claim alike — when the claim went past the budget: inserting into it
-- fails, with the message 'rate limit spent', when the counter is past `limit`; otherwise it
-- writes nothing. (lib/platform/rate-limit/store.ts, RidingClaim)
CREATE VIEW `rate_limit_checks` AS SELECT NULL AS `bucket`, NULL AS `window_start`, NULL AS `limit`;
--> statement-breakpoint
CREATE TRIGGER `rate_limit_check` INSTEAD OF INSERT ON `rate_limit_checks`
BEGIN
  SELECT RAISE(ABORT, 'rate limit spent')
  WHERE (SELECT `count` FROM `rate_limit_counters` WHERE `bucket` = NEW.`bucket` AND `window_start` = NEW.`window_start`) > NEW.`limit`;
END;
