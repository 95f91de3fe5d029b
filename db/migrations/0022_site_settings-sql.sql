-- The Site's settings are shown by the storefront (its texts in the Site read, the imprint's
-- name and address), and every cache of it is keyed on the catalog version: a change to them
-- bumps it, as a change to the catalog does (0001), so it is live at the next request.
CREATE TRIGGER sites_settings_update_bump AFTER UPDATE OF legal_name, postal_address, contact_email ON sites BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = NEW.id; END;
--> statement-breakpoint
CREATE TRIGGER site_texts_insert_bump AFTER INSERT ON site_texts BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = NEW.site_id; END;
--> statement-breakpoint
CREATE TRIGGER site_texts_update_bump AFTER UPDATE ON site_texts BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = NEW.site_id; END;
--> statement-breakpoint
CREATE TRIGGER site_texts_delete_bump AFTER DELETE ON site_texts BEGIN UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = OLD.site_id; END;
