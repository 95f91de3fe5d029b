import { onTransaction, type Database, type StatementTransaction } from '@/db';
import { CatalogCollection, CatalogDocument, CatalogProduct, type CatalogMarket } from '@/lib/contract/catalog-document';
import { applyChanges, inCatalogTransaction, STAGE_LEASE_MS } from './apply';
import { planImport, type CatalogChanges, type ImportPlan } from './plan';
import { detailsLoader, loadCatalogIndex, loadTransferSite, type CatalogIndex, type DetailsLoader, type TransferSite } from './state';
import { CatalogInputError, count, decodeCatalogText, importLimits, unstorableText, type ImportLimits } from './input';
import { JsonSyntaxError, splitCatalogJson } from './json-stream';
import { issuesFromZod, pointerOf, validateAgainstSite, validateMarketNames, type CatalogIssue } from './validate';

/**
 * What an input file becomes before it meets the shop: either a whole document (already
 * checked against the schema), or products that need the stored catalog to be complete
 * (a Shopify file knows one market and one locale; `complete` fills in the rest).
 */
export type ImportSource =
  | {
      kind: 'document';
      products: CatalogProduct[];
      collections: CatalogCollection[];
      markets?: CatalogMarket[];
      lineOf?: (pointer: string) => number | undefined;
    }
  | {
      kind: 'partial';
      /** `remove`: handles of stored products to delete (the delete command). */
      complete: (
        site: TransferSite,
        index: CatalogIndex,
        loadDetails: DetailsLoader,
      ) => Promise<{ products: unknown[]; notes: string[]; issues: CatalogIssue[]; remove?: string[] }>;
      /** CSV line of an issue's pointer (`/products/3/variants/1/...`), when known. */
      lineOf?: (pointer: string) => number | undefined;
      /** The issues in the source's own terms (a spreadsheet's lines and columns), all of them, in its order. */
      locate?: (issues: CatalogIssue[]) => CatalogIssue[];
    };

/** `delete` (with `prune`): products missing from the file are deleted for real instead of archived. */
export type ImportOptions = {
  siteHandle: string;
  dryRun?: boolean;
  prune?: boolean;
  delete?: boolean;
  now?: number;
  /** Rows of new products written ahead per request (apply.ts STAGE_ROWS; tests and benches set it). */
  stageRows?: number;
};

export type ImportResult =
  | { ok: true; plan: ImportPlan; applied: boolean; catalogVersion: { before: number; after: number } }
  | { ok: false; issues: CatalogIssue[] };

const DocumentHead = CatalogDocument.omit({ products: true, collections: true });

/** The line each product and collection starts on, so later checks can name lines too. */
export type DocumentLines = { products: number[]; collections: number[] };
export type ParsedDocument = { ok: true; doc: CatalogDocument; lines: DocumentLines } | { ok: false; issues: CatalogIssue[] };

/**
 * Reads a document as it streams in (bytes, which must be UTF-8, or text), checking each
 * product and collection against the schema as it arrives, so memory holds the parsed
 * catalog but never the file's text. Every problem is reported, not only the first; a
 * file beyond `limits` is refused where it goes past them, and reading stops there.
 */
export async function readCatalogDocument(
  chunks: AsyncIterable<string | Uint8Array>,
  limits: ImportLimits = importLimits(),
): Promise<ParsedDocument> {
  const issues: CatalogIssue[] = [];
  const head: Record<string, unknown> = {};
  const lists = { products: [] as CatalogProduct[], collections: [] as CatalogCollection[] };
  const lines: DocumentLines = { products: [], collections: [] };
  const seen = new Set<string>();
  let items = 0;
  try {
    for await (const part of splitCatalogJson(decodeCatalogText(chunks, limits), limits.itemChars)) {
      const at = part.index === null ? [part.key] : [part.key, part.index];
      if (part.opens) {
        seen.add(part.key);
        continue;
      }
      if (part.index !== null && ++items > limits.items) {
        issues.push({
          pointer: pointerOf(at),
          line: part.line,
          field: part.key,
          expected: `at most ${count(limits.items)} products and collections in one file (split it, or run the command with a bigger heap: docs/catalog.md, "Limits")`,
        });
        return { ok: false, issues };
      }
      let raw: unknown;
      try {
        raw = JSON.parse(part.text);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        // V8 names the offset in the item's text; count its lines to point at the file's line
        const offset = /position (\d+)/.exec(message);
        const line = part.line + (offset ? (part.text.slice(0, Number(offset[1])).match(/\n/g)?.length ?? 0) : 0);
        issues.push({
          pointer: pointerOf(at),
          line,
          field: part.key,
          expected: `valid JSON (${message.replace(/ in JSON at position \d+.*$/, '')})`,
        });
        continue;
      }
      if (MAYBE_UNSTORABLE.test(part.text)) issues.push(...unstorableIssues(raw, at, part.line));
      if (part.index === null && (part.key === 'products' || part.key === 'collections')) {
        seen.add(part.key);
        issues.push({ pointer: `/${part.key}`, line: part.line, field: part.key, expected: `a "${part.key}" array (it may be empty)` });
        continue;
      }
      if (part.index === null) {
        seen.add(part.key);
        head[part.key] = raw;
        continue;
      }
      seen.add(part.key);
      if (part.key === 'products' || part.key === 'collections') lines[part.key][part.index] = part.line;
      const schema = part.key === 'products' ? CatalogProduct : CatalogCollection;
      const parsed = schema.safeParse(raw);
      if (parsed.success) (lists[part.key as 'products' | 'collections'] as unknown[]).push(parsed.data);
      else issues.push(...issuesFromZod(parsed.error, raw, at).map((i) => ({ ...i, line: part.line })));
    }
  } catch (error) {
    if (error instanceof CatalogInputError) return { ok: false, issues: [...issues, error.issue] };
    if (!(error instanceof JsonSyntaxError)) throw error;
    issues.push({ pointer: '', line: error.line, field: '(document)', expected: `valid JSON: ${error.message}` });
    return { ok: false, issues };
  }
  for (const key of ['products', 'collections'] as const) {
    if (!seen.has(key)) issues.push({ pointer: `/${key}`, field: key, expected: `a "${key}" array (it may be empty)` });
  }
  const parsedHead = DocumentHead.safeParse(head);
  if (!parsedHead.success) issues.push(...issuesFromZod(parsedHead.error, head));
  if (issues.length > 0 || !parsedHead.success) return { ok: false, issues };
  return { ok: true, doc: { ...parsedHead.data, ...lists }, lines };
}

/** In JSON text, NUL and surrogates arrive escaped (raw control characters are not JSON); the rare item with one is searched. */
const MAYBE_UNSTORABLE = /\\u(?:0000|[dD][89a-fA-F])|[\u0000\ud800-\udfff]/;

/** Every text in a parsed item (member names too) that the database could not give back unchanged. */
function unstorableIssues(raw: unknown, at: (string | number)[], line: number): CatalogIssue[] {
  const issues: CatalogIssue[] = [];
  const handle =
    raw && typeof raw === 'object' && typeof (raw as { handle?: unknown }).handle === 'string'
      ? (raw as { handle: string }).handle
      : undefined;
  const visit = (node: unknown, path: (string | number)[]) => {
    if (typeof node === 'string') {
      const problem = unstorableText(node);
      if (problem)
        issues.push({
          pointer: pointerOf(path),
          line,
          handle,
          field: String(path.filter((p) => typeof p === 'string').at(-1)),
          expected: problem,
        });
    } else if (Array.isArray(node)) node.forEach((item, i) => visit(item, [...path, i]));
    else if (node && typeof node === 'object') {
      for (const [name, value] of Object.entries(node)) {
        const problem = unstorableText(name);
        if (problem)
          issues.push({
            pointer: pointerOf([...path, name]),
            line,
            handle,
            field: name,
            expected: `a name ${problem.replace(/^text /, '')}`,
          });
        visit(value, [...path, name]);
      }
    }
  };
  visit(raw, at);
  return issues;
}

/** A whole document's text (tests, small files). */
export function parseCatalogDocument(text: string): Promise<ParsedDocument> {
  return readCatalogDocument(
    (async function* () {
      yield text;
    })(),
  );
}

export function documentSource(doc: CatalogDocument, lines?: DocumentLines): ImportSource {
  const lineOf = lines
    ? (pointer: string) => {
        const [, key, index] = pointer.split('/');
        return key === 'products' || key === 'collections' ? lines[key][Number(index)] : undefined;
      }
    : undefined;
  return { kind: 'document', products: doc.products, collections: doc.collections, markets: doc.markets, lineOf };
}

/**
 * Another import is writing the Site's catalog ahead of its last commit (or one stopped
 * within its lease, and what it wrote ahead is deleted once the lease is over).
 */
export class CatalogBusyError extends Error {
  constructor(siteHandle: string, stagedAt: number, options?: ErrorOptions) {
    const until = new Date(stagedAt + STAGE_LEASE_MS).toISOString();
    super(
      `another import is writing Site "${siteHandle}"'s catalog, and this one names the same products or SKUs; try again when it has finished (if it stopped, what it wrote ahead is removed after ${until})`,
      options,
    );
    this.name = 'CatalogBusyError';
  }
}

type Planned =
  | { ok: false; issues: CatalogIssue[] }
  | {
      ok: true;
      site: TransferSite;
      index: CatalogIndex;
      productsIn: CatalogProduct[];
      plan: ImportPlan;
      changes: CatalogChanges;
      removedVariantIds: string[];
      deletedVariantIds: string[];
    };

/**
 * Checks the whole input against the schema and the Site, then (unless it is a dry run,
 * anything is wrong or nothing differs) writes the differences in one write transaction.
 *
 * The checks and the plan read a snapshot in a read transaction, which takes no lock:
 * reading and comparing a 10k catalog takes seconds, and holding the write lock that long
 * would make the running shop's own writes (checkouts, signups) wait. The write then only
 * sends the planned rows, as one batch (apply.ts). Should another writer have added a row
 * the plan did not know of (a second import at the same moment), a constraint fails, the
 * write rolls back whole, and the import plans again from a fresh snapshot.
 */
export async function importCatalog(database: Database, source: ImportSource, options: ImportOptions): Promise<ImportResult> {
  const now = options.now ?? Date.now();
  for (let attempt = 1; ; attempt += 1) {
    const planned = await inCatalogTransaction<Planned>(database, 'read', async (tx) => ({
      commit: false,
      result: await planFrom(tx, source, options, now),
    }));
    if (!planned.ok) return planned;
    const { site, plan } = planned;
    if (options.dryRun || plan.rowWrites === 0) {
      return { ok: true, plan, applied: false, catalogVersion: { before: site.catalogVersion, after: site.catalogVersion } };
    }
    try {
      const { staged } = planned.index;
      const applied = await applyChanges(database, site.id, planned.changes, planned.removedVariantIds, planned.deletedVariantIds, {
        abandoned: staged.oldestAt !== null && staged.oldestAt < now - STAGE_LEASE_MS,
        stageRows: options.stageRows,
        now,
      });
      if (!applied.ok)
        return fail(inUseIssues(planned, applied.inUse), source.lineOf, source.kind === 'partial' ? source.locate : undefined).result;
      return { ok: true, plan, applied: true, catalogVersion: { before: site.catalogVersion, after: applied.catalogVersion } };
    } catch (error) {
      const conflict = String((error as { code?: unknown }).code ?? '').startsWith('SQLITE_CONSTRAINT');
      if (conflict && attempt < 3) continue;
      if (conflict && planned.index.staged.products > 0)
        throw new CatalogBusyError(options.siteHandle, planned.index.staged.oldestAt!, { cause: error });
      throw error;
    }
  }
}

async function planFrom(tx: StatementTransaction, source: ImportSource, options: ImportOptions, now: number): Promise<Planned> {
  const read = onTransaction(tx);
  const site = await loadTransferSite(read, options.siteHandle);
  const index = await loadCatalogIndex(read, site.id);
  const loadDetails = detailsLoader(read);

  let productsIn: CatalogProduct[];
  let collectionsIn: CatalogCollection[] | null;
  let marketsIn: CatalogMarket[] | null = null;
  const notes: string[] = [];
  const issues: CatalogIssue[] = [];
  const remove = new Set<string>();
  if (source.kind === 'document') {
    productsIn = source.products;
    collectionsIn = source.collections;
    marketsIn = source.markets ?? null;
  } else {
    const completed = await source.complete(site, index, loadDetails);
    notes.push(...completed.notes);
    issues.push(...completed.issues);
    for (const handle of completed.remove ?? []) remove.add(handle);
    // Every product is checked against the schema and the Site in the same pass, so one
    // pass reports every problem of the file (a merchant fixing a spreadsheet should not meet
    // a second round after fixing the first). The mapping builds each product whole, so the
    // Site checks can read one whose cells the schema refused (the source drops the repeats).
    const parsed = completed.products.map((raw) => CatalogProduct.safeParse(raw));
    parsed.forEach((r, i) => {
      if (!r.success) issues.push(...issuesFromZod(r.error, completed.products[i], ['products', i]));
    });
    const valid = parsed.map((r, i) => (r.success ? r.data : (completed.products[i] as CatalogProduct)));
    issues.push(...validateAgainstSite(site, index, valid, null));
    productsIn = valid;
    collectionsIn = null;
    if (issues.length > 0) return fail(issues, source.lineOf, source.locate).result;
  }
  if (source.kind === 'document') {
    issues.push(...validateAgainstSite(site, index, productsIn, collectionsIn));
    if (marketsIn) issues.push(...validateMarketNames(site, marketsIn));
    if (issues.length > 0) return fail(issues, source.lineOf).result;
  }

  if (options.prune && options.delete) {
    const inFile = new Set(productsIn.map((p) => p.handle));
    for (const p of index.products) if (!inFile.has(p.handle)) remove.add(p.handle);
  }
  if (remove.size > 0) {
    const deleted = deletedRefusals(index, remove, productsIn, collectionsIn);
    if (deleted.length > 0) return fail(deleted, source.lineOf).result;
  }
  const { plan, changes, removedVariantIds, deletedVariantIds } = await planImport({
    site,
    index,
    loadDetails,
    products: productsIn,
    collections: collectionsIn,
    markets: marketsIn,
    prune: options.prune ?? false,
    remove,
    now,
  });
  plan.notes.unshift(...notes);
  return { ok: true, site, index, productsIn, plan, changes, removedVariantIds, deletedVariantIds };
}

/** What the file keeps may not name a product it deletes: a collection's member, a bundle's item. */
function deletedRefusals(
  index: CatalogIndex,
  remove: Set<string>,
  productsIn: CatalogProduct[],
  collectionsIn: CatalogCollection[] | null,
): CatalogIssue[] {
  const issues: CatalogIssue[] = [];
  const handleOf = new Map(index.products.map((p) => [p.id, p.handle]));
  const ownerOfSku = new Map(index.productVariants.map((v) => [v.sku, handleOf.get(v.productId) ?? '']));
  const inFile = new Set(productsIn.flatMap((p) => p.variants.map((v) => v.sku)));
  productsIn.forEach((p, i) =>
    p.bundles.forEach((b, j) =>
      b.items.forEach((item, k) => {
        const owner = ownerOfSku.get(item.sku);
        if (!inFile.has(item.sku) && owner !== undefined && remove.has(owner)) {
          issues.push({
            pointer: `/products/${i}/bundles/${j}/items/${k}/sku`,
            handle: p.handle,
            field: 'sku',
            expected: `a SKU of a product that stays ("${owner}" is deleted)`,
          });
        }
      }),
    ),
  );
  (collectionsIn ?? []).forEach((c, i) =>
    c.products.forEach((member, k) => {
      if (remove.has(member))
        issues.push({
          pointer: `/collections/${i}/products/${k}`,
          handle: c.handle,
          field: 'products',
          expected: `a product that stays ("${member}" is deleted)`,
        });
    }),
  );
  return issues;
}

function inUseIssues(planned: Extract<Planned, { ok: true }>, inUse: Map<string, string>): CatalogIssue[] {
  const variantById = new Map(planned.index.productVariants.map((v) => [v.id, v]));
  const handleOf = new Map(planned.index.products.map((p) => [p.id, p.handle]));
  const deleted = new Set(planned.deletedVariantIds);
  return [...inUse].map(([id, by]) => {
    const v = variantById.get(id)!;
    const handle = handleOf.get(v.productId);
    if (deleted.has(id)) {
      return {
        pointer: '',
        handle,
        field: 'handle',
        expected: `a product nothing still needs: ${by} refers to its variant ${v.sku} (archive it instead, and delete it once that is over)`,
      };
    }
    const index = planned.productsIn.findIndex((p) => p.handle === handle);
    return {
      pointer: `/products/${index}/variants`,
      handle,
      field: 'variants',
      expected: `variant ${v.sku} kept in the file: ${by} still refers to it`,
    };
  });
}

function fail(
  issues: CatalogIssue[],
  lineOf?: (pointer: string) => number | undefined,
  locate?: (issues: CatalogIssue[]) => CatalogIssue[],
) {
  const located = locate ? locate(issues) : lineOf ? issues.map((i) => ({ ...i, line: i.line ?? lineOf(i.pointer) })) : issues;
  return { commit: false, result: { ok: false as const, issues: located } };
}

/**
 * `npm run catalog -- delete`: the products of these handles deleted for real, on the
 * import path (the same plan, checks, one-batch write and catalog version), with every row
 * of theirs: variants, prices, stock, texts, images, bundles, collection memberships and
 * search documents. Refused whole for a handle the shop does not have, or (inside the
 * write) while something the shop must keep still needs one of them.
 */
export function deleteSource(handles: string[]): ImportSource {
  return {
    kind: 'partial',
    complete: async (site, index) => {
      const known = new Set(index.products.map((p) => p.handle));
      const issues: CatalogIssue[] = [];
      handles.forEach((handle, i) => {
        if (!known.has(handle))
          issues.push({ pointer: `/${i}`, handle, field: 'handle', expected: `the handle of a product of Site "${site.handle}"` });
        else if (handles.indexOf(handle) !== i) issues.push({ pointer: `/${i}`, handle, field: 'handle', expected: 'each handle once' });
      });
      return { products: [], notes: [], issues, remove: handles };
    },
  };
}
