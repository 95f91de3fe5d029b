// npm run -s site -- export --site <handle> [--out FILE]
// npm run -s site -- import --site <handle> FILE [--dry-run]
// npm run -s site -- create FILE [--dry-run]
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { db } from '@/lib/db';
import { migrateDatabase } from '@/db/migrate';
import { createCredential } from '@/lib/platform/auth/credentials';
import { DomainError } from '@/lib/platform/errors';
import {
  createSite,
  exportSettings,
  importSettings,
  parseSettingsDocument,
  settingsDocumentText,
  type SettingsIssue,
  type SettingsResult,
} from '@/lib/commerce/site-settings';

const USAGE = `usage:
  site export --site <handle> [--out FILE]
  site import --site <handle> FILE [--dry-run]
  site create FILE [--dry-run]          (a new Site, no products; prints its storefront credential)`;

function printIssues(issues: SettingsIssue[]): void {
  console.error(`Refused: ${issues.length} problem(s); nothing was written.`);
  for (const i of issues) {
    const where = [i.line === undefined ? null : `line ${i.line}`, i.pointer || null, i.field].filter(Boolean).join(', ');
    console.error(`  ${where}: expected ${i.expected}`);
  }
}

function printPlan(
  handle: string,
  result: Extract<SettingsResult, { ok: true }>,
  dryRun: boolean,
  print: (line: string) => void = console.log,
): void {
  const { plan } = result;
  print(`Plan for Site "${handle}"${dryRun ? ' (dry run: nothing written)' : ''}:`);
  print(`  site         ${plan.site}`);
  for (const [part, c] of Object.entries(plan.parts)) {
    print(`  ${part.padEnd(12)} created ${c.created}, updated ${c.updated}, unchanged ${c.unchanged}, removed ${c.removed}`);
  }
  if (dryRun) print(`${plan.rowWrites} row(s) would be written.`);
  else if (result.applied)
    print(
      `Applied: ${plan.rowWrites} row(s) written in one transaction; catalog version ${result.catalogVersion.before} → ${result.catalogVersion.after}. Live on every instance from the next request.`,
    );
  else print(`Nothing to change: the settings already match (version stays ${result.catalogVersion.before}).`);
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    options: { site: { type: 'string' }, out: { type: 'string' }, 'dry-run': { type: 'boolean', default: false } },
    allowPositionals: true,
  });
  const file = positionals[0];
  const valid =
    (command === 'export' && values.site && positionals.length === 0) ||
    (command === 'import' && values.site && file && positionals.length === 1) ||
    (command === 'create' && !values.site && file && positionals.length === 1);
  if (!valid) {
    console.error(USAGE);
    return 2;
  }
  const database = db();
  await migrateDatabase(database);
  const dryRun = values['dry-run'] ?? false;

  if (command === 'export') {
    const text = settingsDocumentText(await exportSettings(database, values.site!));
    if (values.out) {
      writeFileSync(values.out, text);
      console.error(`Exported the settings of Site "${values.site}" to ${values.out}.`);
    } else process.stdout.write(text);
    return 0;
  }

  const parsed = parseSettingsDocument(readFileSync(file!));
  if (!parsed.ok) {
    printIssues(parsed.issues);
    return 1;
  }
  if (command === 'import') {
    const result = await importSettings(database, parsed.doc, parsed.lines, { siteHandle: values.site!, dryRun });
    if (!result.ok) {
      printIssues(result.issues);
      return 1;
    }
    printPlan(values.site!, result, dryRun);
    return 0;
  }
  const result = await createSite(database, parsed.doc, parsed.lines, { dryRun });
  if (!result.ok) {
    printIssues(result.issues);
    return 1;
  }
  // stdout is the credential alone (TOKEN=$(npm run -s site -- create FILE)); the rest goes to stderr
  printPlan(parsed.doc.handle, result, dryRun, console.error);
  if (dryRun) return 0;
  // What a storefront needs to serve the new Site: its own credential (docs/site-settings.md, "A new shop").
  const made = await createCredential(database, { siteHandle: parsed.doc.handle, scope: 'extended', label: 'storefront' });
  console.error(`Created Site "${parsed.doc.handle}" (${result.siteId}) with no products. Its storefront credential (shown once) follows;`);
  console.error(
    'serve the shop with it as SITE_API_CREDENTIAL, and add products with: npm run catalog -- import --site ' + parsed.doc.handle + ' FILE',
  );
  console.log(made.token);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof DomainError ? error.detail : error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
