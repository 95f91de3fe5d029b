// Prints the SQL of migration 0001 (catalog_version triggers). Kept so the triggers can be
// regenerated into a new custom migration when a catalog table is added.
const bump = (siteExpr) => `UPDATE sites SET catalog_version = catalog_version + 1 WHERE id = ${siteExpr};`;
const bySite = (r) => `${r}.site_id`;
const byProduct = (r) => `(SELECT site_id FROM products WHERE id = ${r}.product_id)`;
const byVariant = (r) => `(SELECT site_id FROM product_variants WHERE id = ${r}.variant_id)`;
const byBundle = (r) => `(SELECT p.site_id FROM bundles b JOIN products p ON p.id = b.product_id WHERE b.id = ${r}.bundle_id)`;
const byCollection = (r) => `(SELECT site_id FROM collections WHERE id = ${r}.collection_id)`;
const tables = {
  products: bySite,
  product_variants: bySite,
  collections: bySite,
  markets: bySite,
  market_countries: bySite,
  market_locales: bySite,
  product_translations: byProduct,
  product_images: byProduct,
  bundles: byProduct,
  variant_prices: byVariant,
  inventory_levels: byVariant,
  bundle_items: byBundle,
  bundle_prices: byBundle,
  collection_translations: byCollection,
  collection_products: byCollection,
};
const out = [
  '-- Any change to what the catalog shows bumps sites.catalog_version, so caches and the\n-- storefront snapshot version can be checked with one indexed read.\n' +
    'CREATE TRIGGER sites_update_bump AFTER UPDATE OF name, handle, default_market_id, default_locale, checkout_base_url ON sites BEGIN ' +
    bump('NEW.id') +
    ' END;',
];
for (const [table, site] of Object.entries(tables)) {
  for (const [event, row] of [
    ['INSERT', 'NEW'],
    ['UPDATE', 'NEW'],
    ['DELETE', 'OLD'],
  ]) {
    out.push(`CREATE TRIGGER ${table}_${event.toLowerCase()}_bump AFTER ${event} ON ${table} BEGIN ${bump(site(row))} END;`);
  }
}
console.log(out.join('\n--> statement-breakpoint\n'));
