/**
 * npm test's contract lint: the OpenAPI document the server publishes, generated from the
 * same zod schemas, must pass Redocly's `recommended` rules and Spectral's `spectral:oas`
 * with no error and no warning.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildOpenApiDocument } from '@/lib/contract/openapi';

const out = resolve('test-reports');
mkdirSync(out, { recursive: true });
const file = join(out, 'openapi.json');
writeFileSync(file, JSON.stringify(buildOpenApiDocument(), null, 2));

const bin = (name: string) => resolve('node_modules', '.bin', name);
let failed = false;

// Redocly exits non-zero on errors; the JSON report is printed either way.
const redoclyRun = spawnSync(bin('redocly'), ['lint', '--config', 'redocly.yaml', '--format', 'json', file], { encoding: 'utf8' });
const redocly = JSON.parse(redoclyRun.stdout.trim() || '{}') as {
  totals?: { errors: number; warnings: number };
  problems?: Array<{ ruleId: string; message: string; location?: Array<{ pointer?: string }> }>;
};
for (const p of redocly.problems ?? []) console.error(`redocly ${p.ruleId}: ${p.message} at ${p.location?.[0]?.pointer ?? '?'}`);
if (!redocly.totals || redocly.totals.errors + redocly.totals.warnings > 0) failed = true;
console.log(`redocly: ${redocly.totals?.errors ?? '?'} errors, ${redocly.totals?.warnings ?? '?'} warnings`);

try {
  execFileSync(bin('spectral'), ['lint', '--ruleset', '.spectral.yaml', '--fail-severity', 'warn', '--display-only-failures', file], {
    stdio: 'inherit',
  });
  console.log('spectral: no problems');
} catch {
  failed = true;
}

if (failed) {
  console.error('The OpenAPI document has lint problems (see above).');
  process.exit(1);
}
