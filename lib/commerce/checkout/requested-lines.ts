import type { DbOrTx } from '@/db/client';
import { canSell } from '../availability';
import type { SiteContext } from '@/lib/platform/auth/credentials';
import { DomainError, type FieldError } from '@/lib/platform/errors';
import type { MarketInfo } from '../markets';
import { bundleLines, bundleVariants, readCatalogBundles, variantLine } from './bundles';
import { readCatalogVariants } from './catalog-lines';
import { mergeBundles, mergeLines, type RequestedBundle, type RequestedLine } from './pricing';
import type { LineRow } from './session-storage';

export const MAX_SESSION_LINES = 100;

/**
 * The session lines for a create body, priced from the catalog of one market: plain lines
 * (duplicates merged) first, then one line per item of each bundle (duplicates merged),
 * kept apart from plain lines of the same variant because they carry the bundle's price.
 * Every unknown thing to buy is reported at once (422 unknown_variant; an unknown bundle,
 * or one with an item that cannot be bought, counts as one); then everything that cannot
 * be sold now (409 insufficient_stock), judged on the variant's demand over all lines.
 */
export async function priceRequestedLines(
  database: DbOrTx,
  site: SiteContext['site'],
  market: MarketInfo,
  locale: string,
  input: { lines: RequestedLine[]; bundles?: RequestedBundle[] },
): Promise<LineRow[]> {
  const merged = mergeLines(input.lines);
  const wanted = mergeBundles(input.bundles ?? []);
  const found = await readCatalogBundles(
    database,
    site,
    market.id,
    locale,
    wanted.map((b) => b.bundleId),
  );
  const itemIds = [...found.values()].flatMap((b) => b.items.map((i) => i.variantId));
  const catalog = await readCatalogVariants(database, site, market.id, locale, [...merged.map((l) => l.variantId), ...itemIds]);

  const linePointers = (indexes: number[], code: string, detail: string): FieldError[] =>
    indexes.map((i) => ({ pointer: `/lines/${i}/variantId`, code, detail }));
  const bundlePointers = (indexes: number[], code: string, detail: string): FieldError[] =>
    indexes.map((i) => ({ pointer: `/bundles/${i}/bundleId`, code, detail }));

  const unknownLines = merged.filter((l) => catalog.get(l.variantId)?.unitPrice == null);
  const bundles = wanted.map((b) => {
    const bundle = found.get(b.bundleId);
    return { ...b, bundle, variants: bundle ? bundleVariants(bundle, catalog) : null };
  });
  const unknownBundles = bundles.filter((b) => !b.variants);
  if (unknownLines.length + unknownBundles.length > 0) {
    throw new DomainError(
      'unknown_variant',
      `${unknownLines.length + unknownBundles.length} line(s) or bundle(s) name something this Site does not sell in market "${market.id}".`,
      {
        errors: [
          ...linePointers(
            unknownLines.flatMap((l) => l.indexes).sort((a, b) => a - b),
            'unknown_variant',
            'No such variant for sale in this market.',
          ),
          ...bundlePointers(
            unknownBundles.flatMap((b) => b.indexes).sort((a, b) => a - b),
            'unknown_variant',
            'No such bundle for sale in this market, or one of its items is not.',
          ),
        ],
      },
    );
  }

  const lineCount = merged.length + bundles.reduce((n, b) => n + b.bundle!.items.length, 0);
  if (lineCount > MAX_SESSION_LINES) {
    throw new DomainError('validation_failed', `The bundles expand to ${lineCount} lines; a session holds at most ${MAX_SESSION_LINES}.`, {
      errors: [
        { pointer: '/bundles', code: 'too_big', detail: `At most ${MAX_SESSION_LINES} lines in all, counting one per bundle item.` },
      ],
    });
  }

  // Stock is judged on all that the session asks of a variant, plain and bundled together.
  const demand = new Map<string, number>();
  const ask = (variantId: string, quantity: number) => demand.set(variantId, (demand.get(variantId) ?? 0) + quantity);
  for (const l of merged) ask(l.variantId, l.quantity);
  for (const b of bundles) for (const item of b.bundle!.items) ask(item.variantId, item.quantity * b.quantity);
  const sellable = (variantId: string) => canSell(catalog.get(variantId)!.level, demand.get(variantId)!);
  const shortLines = merged.filter((l) => !sellable(l.variantId));
  const shortBundles = bundles.filter((b) => !b.bundle!.items.every((i) => sellable(i.variantId)));
  if (shortLines.length + shortBundles.length > 0) {
    throw new DomainError(
      'insufficient_stock',
      `${shortLines.length + shortBundles.length} line(s) or bundle(s) cannot be sold in the quantity asked for.`,
      {
        errors: [
          ...shortLines.flatMap((l) => linePointers(l.indexes, 'insufficient_stock', `Not enough stock for ${demand.get(l.variantId)}.`)),
          ...shortBundles.flatMap((b) =>
            bundlePointers(b.indexes, 'insufficient_stock', `Not enough stock of an item for ${b.quantity} of this bundle.`),
          ),
        ].sort(byIndex),
      },
    );
  }

  const lines: LineRow[] = merged.map((l, position) => {
    const variant = catalog.get(l.variantId)!;
    return variantLine(l.variantId, { ...variant, unitPrice: variant.unitPrice! }, l.quantity, position);
  });
  for (const b of bundles) lines.push(...bundleLines(b.bundle!, b.variants!, b.quantity, lines.length));
  return lines;
}

/** Lines before bundles, each by index as sent. */
function byIndex(a: FieldError, b: FieldError): number {
  const key = (e: FieldError) => [e.pointer.startsWith('/lines/') ? 0 : 1, Number(e.pointer.split('/')[2])] as const;
  const [ka, kb] = [key(a), key(b)];
  return ka[0] - kb[0] || ka[1] - kb[1];
}
