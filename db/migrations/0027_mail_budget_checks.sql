-- A signup is written as one batch (one request to a database over a network): its consent,
-- its subscription, the mail budget's counters and its confirmation message. When the mail is
-- over its daily budget nothing of it may stay. A batch is undone by a statement that fails,
-- so the last step asks this view to check the counters: inserting into it fails, with the
-- message 'mail budget spent', when either counter went past its limit; otherwise it writes
-- nothing. (lib/commerce/signups/mail-budget.ts)
CREATE VIEW `mail_budget_checks` AS SELECT NULL AS `bucket`, NULL AS `window_start`, NULL AS `limit`;
--> statement-breakpoint
CREATE TRIGGER `mail_budget_check` INSTEAD OF INSERT ON `mail_budget_checks`
BEGIN
  SELECT RAISE(ABORT, 'mail budget spent')
  WHERE (SELECT `count` FROM `rate_limit_counters` WHERE `bucket` = NEW.`bucket` AND `window_start` = NEW.`window_start`) > NEW.`limit`;
END;
