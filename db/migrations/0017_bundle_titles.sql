-- A bundle's title in the Site's other languages (locale → title, JSON), where it differs
-- from the title as written; null keeps one title for every language, as before.
ALTER TABLE `bundles` ADD `titles` text;
