import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { inventoryLevels, productImages, productTranslations, productVariants, products, variantPrices } from '@/db/schema';
import { idList, inIdList, prepared, type DbOrTx } from '@/db';
import type { AvailabilityStatus, Image } from '@/lib/contract/common';
import type { ProductSummary, Variant } from '@/lib/contract/catalog';
import { availabilityStatus, bestStatus } from '../availability';
import { toMoney } from '../money';
import type { MarketChoice } from '../markets';
import { displayedVariantOptions, displayedVariantTitle, type OptionTexts, type ProductOptions } from './option-texts';

export type ProductRow = typeof products.$inferSelect;
export type Translation = typeof productTranslations.$inferSelect;

export const iso = (ms: number) => new Date(ms).toISOString();

/** Text in the chosen locale, else the Site's default locale, else any. */
export async function loadTranslations(database: DbOrTx, ids: string[], locale: string, fallback: string) {
  const rows = ids.length
    ? await prepared(database, 'catalog.translations', translationsQuery).all({ ids: idList(ids), locale, fallback })
    : [];
  return translationsFrom(rows, locale);
}

export function translationsFrom(rows: Translation[], locale: string) {
  const out = new Map<string, Translation>();
  for (const row of rows) {
    if (row.locale === locale || !out.has(row.productId)) out.set(row.productId, row);
  }
  return out;
}

const translationsQuery = (database: DbOrTx) =>
  database
    .select()
    .from(productTranslations)
    .where(
      and(
        inIdList(productTranslations.productId, 'ids'),
        inArray(productTranslations.locale, [sql.placeholder('locale'), sql.placeholder('fallback')]),
      ),
    )
    .prepare();

const imagesQuery = (database: DbOrTx) =>
  database
    .select()
    .from(productImages)
    .where(inIdList(productImages.productId, 'ids'))
    .orderBy(asc(productImages.productId), asc(productImages.position))
    .prepare();

/**
 * An image's alt text as written, kept beside the one the locale shows: variants find their
 * image by it (imageShowing). A symbol key, so it is never part of an answer.
 */
const WRITTEN_ALT = Symbol('alt as written');
type ShownImage = Image & { [WRITTEN_ALT]?: string };

/** Products' images in order, with their alt texts in `locale` (where the image has one there). */
export async function loadImages(database: DbOrTx, ids: string[], firstOnly: boolean, locale: string) {
  const rows = ids.length ? await prepared(database, 'catalog.images', imagesQuery).all({ ids: idList(ids) }) : [];
  return imagesFrom(rows, firstOnly, locale);
}

export function imagesFrom(rows: Array<typeof productImages.$inferSelect>, firstOnly: boolean, locale: string) {
  // Positions are an order, not an index from 0: the first image is the lowest position.
  const out = new Map<string, Image[]>();
  for (const { productId, url, alt, alts, width, height } of rows) {
    const list = out.get(productId) ?? [];
    const image: ShownImage = { url, alt: alts?.[locale] ?? alt, width, height, [WRITTEN_ALT]: alt };
    if (!firstOnly || list.length === 0) out.set(productId, [...list, image]);
  }
  return out;
}

/**
 * Variants sold in the chosen market (a variant without a price there is not sold there),
 * with prices and coarse availability, grouped by product in display order.
 */
const variantsQuery = (database: DbOrTx) =>
  database
    .select({
      id: productVariants.id,
      productId: productVariants.productId,
      sku: productVariants.sku,
      title: productVariants.title,
      options: productVariants.options,
      amount: variantPrices.amount,
      compareAtAmount: variantPrices.compareAtAmount,
      quantity: inventoryLevels.quantity,
      lowStockThreshold: inventoryLevels.lowStockThreshold,
      policy: inventoryLevels.policy,
    })
    .from(productVariants)
    .innerJoin(variantPrices, and(eq(variantPrices.variantId, productVariants.id), eq(variantPrices.marketId, sql.placeholder('marketId'))))
    .leftJoin(inventoryLevels, eq(inventoryLevels.variantId, productVariants.id))
    .where(inIdList(productVariants.productId, 'ids'))
    .orderBy(asc(productVariants.productId), asc(productVariants.position))
    .prepare();

export async function loadVariants(database: DbOrTx, ids: string[], choice: MarketChoice) {
  const rows = ids.length
    ? await prepared(database, 'catalog.variants', variantsQuery).all({ ids: idList(ids), marketId: choice.market.id })
    : [];
  return variantsFrom(rows, choice);
}

export type VariantRow = Awaited<ReturnType<ReturnType<typeof variantsQuery>['all']>>[number];

export function variantsFrom(rows: VariantRow[], choice: MarketChoice) {
  const { currency } = choice.market;
  const out = new Map<string, PricedVariant[]>();
  for (const r of rows) {
    const level = r.quantity === null ? null : { quantity: r.quantity, lowStockThreshold: r.lowStockThreshold!, policy: r.policy! };
    const variant = {
      id: r.id,
      sku: r.sku,
      title: r.title,
      options: r.options,
      price: toMoney(r.amount, currency),
      compareAtPrice: r.compareAtAmount !== null && r.compareAtAmount > r.amount ? toMoney(r.compareAtAmount, currency) : null,
      availability: availabilityStatus(level),
      amount: r.amount,
    };
    out.set(r.productId, [...(out.get(r.productId) ?? []), variant]);
  }
  return out;
}

export type PricedVariant = Omit<Variant, 'image'> & { amount: number };

/** Price range, the cheapest one's compare-at price and the best availability of some variants (at least one). */
function looks(vs: PricedVariant[]) {
  const cheapest = vs.reduce((a, b) => (b.amount < a.amount ? b : a));
  const dearest = vs.reduce((a, b) => (b.amount > a.amount ? b : a));
  return {
    priceRange: { min: cheapest.price, max: dearest.price },
    compareAtPrice: cheapest.compareAtPrice,
    availability: bestStatus(vs.map((v) => v.availability as AvailabilityStatus)),
  };
}

/**
 * The list view of products: title, first image, price range, best availability. With
 * `matches` (product id → the ids of its variants a list's filters matched), each product named
 * there also gets `match`: those variants' image, price range and availability.
 */
export async function summarise(
  database: DbOrTx,
  rows: ProductRow[],
  choice: MarketChoice,
  siteDefaultLocale: string,
  matches?: ReadonlyMap<string, readonly string[]>,
): Promise<ProductSummary[]> {
  const ids = rows.map((r) => r.id);
  const [texts, images, variants] = await Promise.all([
    loadTranslations(database, ids, choice.locale, siteDefaultLocale),
    // A matched variant's image may be any of the product's.
    loadImages(database, ids, matches === undefined, choice.locale),
    loadVariants(database, ids, choice),
  ]);
  return rows.flatMap((row) => {
    const vs = variants.get(row.id) ?? [];
    if (vs.length === 0) return []; // not sold in this market
    const summary: ProductSummary = {
      id: row.id,
      handle: row.handle,
      title: texts.get(row.id)?.title ?? row.handle,
      featuredImage: images.get(row.id)?.[0] ?? null,
      ...looks(vs),
      updatedAt: iso(row.updatedAt),
    };
    const wanted = matches?.get(row.id);
    const matched = wanted ? vs.filter((v) => wanted.includes(v.id)) : [];
    if (matched.length > 0) {
      const own = images.get(row.id) ?? [];
      let image: Image | null = null;
      for (const v of matched) if ((image = imageShowing(own, Object.values(v.options)))) break;
      summary.match = { variantIds: matched.map((v) => v.id), image, ...looks(matched) };
    }
    return [summary];
  });
}

/**
 * The variant as the locale shows it (option names, values and a title built from them), without
 * the internal minor-unit amount kept for sorting. Its image is matched on the stored values
 * and the alt texts as written.
 */
export function publicVariant(
  variant: Omit<Variant, 'image'> & { amount: number },
  images: Image[],
  productOptions: ProductOptions,
  texts: OptionTexts | null | undefined,
): Variant {
  const { id, sku, title, options, price, compareAtPrice, availability } = variant;
  return {
    id,
    sku,
    title: displayedVariantTitle(title, options, productOptions, texts),
    options: displayedVariantOptions(options, texts),
    price,
    compareAtPrice,
    availability,
    image: imageShowing(images, Object.values(options)),
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The image that shows one of these option values: variants have no image of their own, so
 * the product's images say what they show in their alt text ("Fjord Ceramic Mug in sand").
 * A value counts as a whole word, in any case, so "Red" does not match "Redwood".
 */
export function imageShowing(images: ShownImage[], values: string[]): Image | null {
  const words = values.map((v) => new RegExp(`(^|\\W)${escapeRegExp(v.toLowerCase())}($|\\W)`));
  return images.find((image) => words.some((w) => w.test((image[WRITTEN_ALT] ?? image.alt).toLowerCase()))) ?? null;
}
