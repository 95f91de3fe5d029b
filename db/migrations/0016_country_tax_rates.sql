-- A market may span countries with different tax rates (the demo's "de": Germany 19%, Austria
-- 20%). A country's own rate, where set, replaces its market's in checkout totals; null keeps
-- the market's, so an existing database charges exactly what it did until a rate is set.
ALTER TABLE `market_countries` ADD `tax_rate_bp` integer;
