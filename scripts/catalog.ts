// npm run -s catalog -- export --site <handle> [--out FILE]
// npm run -s catalog -- import --site <handle> FILE [--format json|shopify-csv] [--locale L] [--dry-run] [--prune]
// npm run -s catalog -- stock --site <handle> SKU=QTY …
// npm run -s catalog -- delete --site <handle> HANDLE … [--dry-run]
import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { db } from '@/lib/db';
import { migrateDatabase } from '@/db/migrate';
import { DomainError } from '@/lib/platform/errors';
import {
  deleteSource,
  documentSource,
  exportCatalogTo,
  importCatalog,
  readCatalogDocument,
  parseStockArgs,
  readShopifyCsv,
  shopifySource,
  stockSource,
  type CatalogIssue,
  type ImportPlan,
  type ImportResult,
  type ImportSource,
} from '@/lib/commerce/catalog/transfer';

const USAGE = `usage:
  catalog export --site <handle> [--out FILE]
  catalog import --site <handle> FILE [--format json|shopify-csv] [--locale L] [--dry-run] [--prune [--delete]]
                 (FILE.csv: shopify-csv; --locale: its language; --prune --delete: delete what the file lacks instead of archiving it)
  catalog stock  --site <handle> SKU=QTY [SKU=QTY …]
  catalog delete --site <handle> HANDLE [HANDLE …] [--dry-run]   (for real: variants, prices, stock, texts, images, bundles, memberships)`;

function printIssues(issues: CatalogIssue[]): void {
  console.error(`Refused: ${issues.length} problem(s); nothing was written.`);
  for (const i of issues) {
    const line = i.line === undefined ? null : i.column === undefined ? `line ${i.line}` : `line ${i.line}, column ${i.column}`;
    // a spreadsheet's column: its letter and its own name
    const field = i.cell ? `column ${i.cell} "${i.field}"` : i.field;
    const where = [line, i.pointer || null, i.handle ? `"${i.handle}"` : null, field].filter(Boolean).join(', ');
    console.error(`  ${where}: expected ${i.expected}`);
  }
}

function printPlan(site: string, plan: ImportPlan, result: Extract<ImportResult, { ok: true }>, dryRun: boolean): void {
  // products and collections are unpublished, never removed; variants and bundles are removed
  const row = (kind: string, c: ImportPlan['products'], last: 'unpublished' | 'removed') =>
    `  ${kind.padEnd(12)} created ${c.created}, updated ${c.updated}, unchanged ${c.unchanged}, ${last} ${c[last]}${last === 'unpublished' && c.removed > 0 ? `, deleted ${c.removed}` : ''}`;
  console.log(`Plan for Site "${site}"${dryRun ? ' (dry run: nothing written)' : ''}:`);
  console.log(row('products', plan.products, 'unpublished'));
  console.log(row('variants', plan.variants, 'removed'));
  console.log(row('bundles', plan.bundles, 'removed'));
  console.log(row('collections', plan.collections, 'unpublished'));
  for (const note of plan.notes) console.log(`  note: ${note}`);
  if (dryRun) console.log(`${plan.rowWrites} row(s) would be written.`);
  else if (result.applied)
    console.log(
      `Applied: ${plan.rowWrites} row(s) written in one transaction; catalog version ${result.catalogVersion.before} → ${result.catalogVersion.after}. Live on every instance from the next request.`,
    );
  else console.log(`Nothing to change: the catalog already matches (version stays ${result.catalogVersion.before}).`);
}

/**
 * What `stock` did, in its own terms: the SKUs it was given and which quantities changed.
 * No file was read and no collection, bundle or other product was looked at, so the import
 * plan's rows and notes about those would only mislead. Only the given SKUs' quantities can
 * change, so the variants the plan updated are exactly the quantities that changed.
 */
function printStock(site: string, given: number, plan: ImportPlan, result: Extract<ImportResult, { ok: true }>): void {
  const changed = plan.variants.updated;
  console.log(`Stock for Site "${site}": ${given} SKU(s) given, ${changed} quantity(ies) changed, ${given - changed} already as given.`);
  if (result.applied)
    console.log(
      `Applied: ${plan.rowWrites} row(s) written in one transaction; catalog version ${result.catalogVersion.before} → ${result.catalogVersion.after}. Live on every instance from the next request.`,
    );
  else console.log(`Nothing to change (catalog version stays ${result.catalogVersion.before}).`);
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    options: {
      site: { type: 'string' },
      out: { type: 'string' },
      format: { type: 'string' },
      locale: { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      prune: { type: 'boolean', default: false },
      delete: { type: 'boolean', default: false },
    },
    allowPositionals: true,
  });
  // --delete only says how --prune treats what the file lacks
  if (
    !values.site ||
    !['export', 'import', 'stock', 'delete'].includes(command ?? '') ||
    (values.delete && (command !== 'import' || !values.prune))
  ) {
    console.error(USAGE);
    return 2;
  }
  const database = db();
  await migrateDatabase(database);

  if (command === 'export') {
    const out = values.out ? createWriteStream(values.out) : process.stdout;
    const counts = await exportCatalogTo(database, values.site, async (chunk) => {
      if (!out.write(chunk)) await once(out, 'drain');
    });
    if (values.out) {
      out.end();
      await once(out, 'finish');
      console.error(
        `Exported ${counts.products} products and ${counts.collections} collections of Site "${values.site}" to ${values.out}.`,
      );
    }
    return 0;
  }

  let source: ImportSource;
  if (command === 'delete') {
    if (positionals.length === 0 || values.prune) {
      console.error(USAGE);
      return 2;
    }
    source = deleteSource(positionals);
  } else if (command === 'stock') {
    const parsed = parseStockArgs(positionals);
    // --prune would unpublish every product but the ones whose stock is given
    if (positionals.length === 0 || values.prune) {
      console.error(USAGE);
      return 2;
    }
    if (parsed.issues.length > 0) {
      printIssues(parsed.issues);
      return 1;
    }
    source = stockSource(parsed.changes);
  } else {
    const file = positionals[0];
    // a .csv file is a Shopify export unless said otherwise
    const format = values.format ?? (file?.toLowerCase().endsWith('.csv') ? 'shopify-csv' : 'json');
    // a document names the locale of each text itself
    if (
      !file ||
      positionals.length > 1 ||
      (format !== 'json' && format !== 'shopify-csv') ||
      (values.locale !== undefined && format !== 'shopify-csv')
    ) {
      console.error(USAGE);
      return 2;
    }
    if (format === 'shopify-csv') {
      // the rows' own problems go on with the file, so the import reports them with the rest
      const csv = await readShopifyCsv(createReadStream(file, { highWaterMark: 1 << 20 }));
      source = shopifySource(csv, { locale: values.locale });
    } else {
      // bytes, not a decoded stream: the import decodes them itself, refusing what is not UTF-8
      const parsed = await readCatalogDocument(createReadStream(file, { highWaterMark: 1 << 20 }));
      if (!parsed.ok) {
        printIssues(parsed.issues);
        return 1;
      }
      source = documentSource(parsed.doc, parsed.lines);
    }
  }
  const dryRun = values['dry-run'] ?? false;
  const result = await importCatalog(database, source, { siteHandle: values.site, dryRun, prune: values.prune, delete: values.delete });
  if (!result.ok) {
    printIssues(result.issues);
    return 1;
  }
  if (command === 'stock') printStock(values.site, positionals.length, result.plan, result);
  else printPlan(values.site, result.plan, result, dryRun);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof DomainError ? error.detail : error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
