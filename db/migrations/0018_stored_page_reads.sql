-- The API reads a kept page was rendered from, with their ETags: after a catalog change, a
-- page whose reads all answer the same is kept under the new version instead of rendered.
-- Null for pages kept before (they render again, as before).
ALTER TABLE `stored_pages` ADD `reads` text;
