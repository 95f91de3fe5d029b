CREATE TABLE `auth_epoch` (
	`id` integer PRIMARY KEY NOT NULL,
	`n` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- What a request's credential read depends on: the credential row and its Site's row. Any
-- change to either, from any connection (another instance, the credential CLI, a person
-- with sqlite3), bumps the counter, and the next request reads the credential again.
INSERT INTO `auth_epoch` (`id`, `n`) VALUES (1, 0);
--> statement-breakpoint
CREATE TRIGGER credentials_insert_auth_epoch AFTER INSERT ON credentials BEGIN UPDATE auth_epoch SET n = n + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER credentials_update_auth_epoch AFTER UPDATE ON credentials BEGIN UPDATE auth_epoch SET n = n + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER credentials_delete_auth_epoch AFTER DELETE ON credentials BEGIN UPDATE auth_epoch SET n = n + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER sites_insert_auth_epoch AFTER INSERT ON sites BEGIN UPDATE auth_epoch SET n = n + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER sites_update_auth_epoch AFTER UPDATE ON sites BEGIN UPDATE auth_epoch SET n = n + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER sites_delete_auth_epoch AFTER DELETE ON sites BEGIN UPDATE auth_epoch SET n = n + 1 WHERE id = 1; END;
