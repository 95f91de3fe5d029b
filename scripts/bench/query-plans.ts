// npx tsx --conditions=react-server scripts/bench/query-plans.ts [--products=10000]
//
// Every SQL statement the API runs for its hot operations, with SQLite's query plan: it
// seeds a fresh catalog, calls the route handlers in-process (no server), records each
// statement the driver prepares, and prints EXPLAIN QUERY PLAN for it. A plan line that
// reads a whole table ("SCAN <table>" without an index) is flagged; the exit code is 1 if any.
// (Walking json_each over an id-list parameter is a walk over the parameter, not a table.)
// A whole index read in a statement without a LIMIT ("SCAN <table> USING [COVERING] INDEX":
// every entry, in the index's order) is a full scan too and is flagged the same way. A sort
// ("USE TEMP B-TREE") is noted with `?? `, not failed: sorting a product's few rows is fine,
// sorting a table is not, and the plan alone does not say which.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'libsql';
import { makeFixture } from './fixture';

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

const { values } = parseArgs({ options: { products: { type: 'string', default: '10000' } } });
const dir = mkdtempSync(join(tmpdir(), 'site-plans-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

const fixture = await makeFixture(dir, Number(values.products), 'http://127.0.0.1:3601', 1);
process.env.DATABASE_URL = fixture.url;
const token = fixture.storefront;

// Record what the driver compiles (both the client's statements and prepared ones).
const seen = new Map<string, string>(); // sql -> first operation that ran it
let current = '';
const proto = Database.prototype as unknown as { prepare: (sql: string) => unknown };
const prepare = proto.prepare;
proto.prepare = function (this: unknown, sql: string) {
  if (!seen.has(sql)) seen.set(sql, current);
  return prepare.call(this, sql);
};

const mod = (path: string) => import(`@/app/site/v1/${path}/route`) as Promise<Record<string, Handler>>;
async function call(
  label: string,
  method: 'GET' | 'POST',
  path: string,
  modPath: string,
  params: Record<string, string> = {},
  body?: unknown,
) {
  current = label;
  const handler = (await mod(modPath))[method]!;
  const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
  if (body !== undefined) Object.assign(headers, { 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() });
  const res = await handler(
    new Request(`http://127.0.0.1/site/v1${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }),
    { params: Promise.resolve(params) },
  );
  if (res.status >= 300) throw new Error(`${label}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<Record<string, unknown>>;
}

const handle = fixture.allHandles[Math.floor(fixture.allHandles.length / 2)]!;
const product = await call('product by handle', 'GET', `/commerce/products/${handle}`, 'commerce/products/[handle]', { handle });
const variants = (product.variants as { id: string; availability: string }[]).filter((v) => v.availability === 'in_stock').map((v) => v.id);
await call('product list', 'GET', '/commerce/products?limit=24', 'commerce/products');
await call('catalog page', 'GET', '/commerce/catalog?limit=50', 'commerce/catalog');
const collections = await call('collection list', 'GET', '/commerce/collections', 'commerce/collections');
const first = (collections.data as { handle: string }[])[0]!.handle;
await call('collection page', 'GET', `/commerce/collections/${first}?limit=24`, 'commerce/collections/[handle]', { handle: first });
await call(
  'availability batch',
  'GET',
  `/commerce/availability?variantIds=${fixture.variantIds.slice(0, 100).join(',')}`,
  'commerce/availability',
);
await call('availability', 'GET', `/commerce/availability/${fixture.variantIds[0]}`, 'commerce/availability/[variantId]', {
  variantId: fixture.variantIds[0]!,
});
await call('storefront snapshot', 'GET', '/commerce/storefront', 'commerce/storefront');
await call('site', 'GET', '/site', 'site');
// search: two words, a first letter, a word with filters and facets, another sort, a typo
await call('search two words', 'GET', `/commerce/products?q=${encodeURIComponent('björk förkläde')}&limit=24`, 'commerce/products');
await call('search prefix', 'GET', '/commerce/products?q=m&limit=24', 'commerce/products');
await call(
  'search faceted',
  'GET',
  `/commerce/products?q=${encodeURIComponent('förkläde')}&option=Color:Sage&priceMin=100&priceMax=900&facets=true&limit=24`,
  'commerce/products',
);
await call('search sorted', 'GET', '/commerce/products?q=mugg&sort=price-asc&limit=24', 'commerce/products');
await call('search typo', 'GET', '/commerce/products?q=ceramc&locale=en-SE&limit=24', 'commerce/products');
const consent = { granted: true, text: 'Send me the newsletter.', version: 'plans-1' };
await call(
  'newsletter signup',
  'POST',
  '/newsletter/subscriptions',
  'newsletter/subscriptions',
  {},
  { email: `plans-${randomUUID()}@example.com`, consent },
);
await call(
  'checkout session',
  'POST',
  '/commerce/checkout-sessions',
  'commerce/checkout-sessions',
  {},
  {
    lines: variants.slice(0, 3).map((variantId) => ({ variantId, quantity: 1 })),
  },
);
// What one checkout creation in a hundred also runs after its answer: the sweep.
current = 'checkout sweep';
const { sweepExpiredCheckoutSessions } = await import('@/lib/commerce/checkout');
const { db: appDatabase } = await import('@/lib/db');
await sweepExpiredCheckoutSessions(appDatabase(), { now: Date.now() });
proto.prepare = prepare;

const db = new Database(fixture.url.slice('file:'.length));
let scans = 0;
let sorted = 0;
const out: string[] = [];
for (const [sql, label] of seen) {
  if (!/^\s*(select|insert|update|delete|with)\b/i.test(sql) || /^\s*select 1\b/i.test(sql)) continue;
  let plan: string[];
  try {
    plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail);
  } catch (error) {
    plan = [`(no plan: ${(error as Error).message})`];
  }
  // Not table scans: a list of constants, json_each over one value (the parameter that holds an
  // id list, db/prepared.ts, or one variant's options), or a search index read by MATCH or by a range of terms (FTS5 and fts5vocab
  // name their plan in the INDEX number and string; 0 with no string is a scan of every row).
  // json_each / json_tree under an alias (`json_each(v.options) o`) walk one value too.
  const walks = jsonWalkAliases(sql);
  // Read whole on purpose, and not per request: search's vocabulary, once per change of the
  // index's texts (lib/commerce/catalog/search.ts, lexiconOf), kept until the next.
  const wholeByDesign = /^\s*select term from product_search_vocab\s*$/i.test(sql);
  const walk = (line: string) => walks.some((alias) => line.startsWith(`SCAN ${alias} VIRTUAL TABLE`));
  // A scan in index order that a LIMIT ends early (a page of a list) reads only its page.
  const limited = /\blimit\b/i.test(sql);
  const full = plan.filter(
    (line) =>
      /^SCAN /.test(line) &&
      !wholeByDesign &&
      !walk(line) &&
      !(limited && /USING (COVERING )?INDEX/.test(line)) &&
      !/CONSTANT ROW|^SCAN json_each VIRTUAL TABLE|^SCAN product_search_\w+ VIRTUAL TABLE INDEX ([1-9]\d*:|0:\S)/.test(line),
  );
  const sorts = plan.filter((line) => /USE TEMP B-TREE/.test(line));
  scans += full.length;
  sorted += sorts.length;
  out.push(`\n[${label}] ${sql.replace(/\s+/g, ' ').slice(0, 220)}`);
  for (const line of plan) out.push(`    ${full.includes(line) ? '!! ' : sorts.includes(line) ? '?? ' : ''}${line}`);
}
/** The aliases of json_each(…) and json_tree(…) in a statement; their arguments may nest parentheses. */
function jsonWalkAliases(sql: string): string[] {
  const aliases: string[] = [];
  for (const match of sql.matchAll(/json_(?:each|tree)\(/gi)) {
    let depth = 1;
    let i = match.index! + match[0].length;
    for (; i < sql.length && depth > 0; i++) depth += sql[i] === '(' ? 1 : sql[i] === ')' ? -1 : 0;
    const alias = /^\s+(?:as\s+)?(\w+)/i.exec(sql.slice(i))?.[1];
    if (alias && !/^(where|on|cross|join|inner|left|order|group|limit)$/i.test(alias)) aliases.push(alias);
  }
  return aliases;
}

out.push(`\n${seen.size} statements; ${scans === 0 ? 'no full table scans' : `${scans} FULL TABLE SCAN(S)`}; ${sorted} sorts (?? )`);
// The app's connections keep the process alive, so it exits by hand, but only once the
// report has been written: into a pipe, process.exit() may cut it off halfway.
process.stdout.write(`${out.join('\n')}\n`, () => process.exit(scans === 0 ? 0 : 1));
