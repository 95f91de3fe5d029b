import { and, eq, sql } from 'drizzle-orm';
import { products } from '@/db/schema';
import { inTransaction, prepared, statementOf, syncReads, type DbOrTx, type Statement, type SyncReader } from '@/db';
import { isPublished } from '../published';
import { toMoney } from '../money';
import type { MarketChoice } from '../markets';
import { bundleTitle } from './option-texts';
import { imagesFrom, translationsFrom, variantsFrom, type ProductRow, type Translation, type VariantRow } from './product-loaders';

/**
 * A published product by handle with everything its answer shows, in ONE statement: the
 * product's row, and its texts, images, variants sold in the market, bundles, their items and
 * its collections, each as a JSON array SQLite builds (json_group_array), in display order.
 *
 * Why one: a miss of the product's answer is what a server's first pass over the catalog is
 * made of, and there most of its cost was per statement (the client's compile, its promise,
 * a row object per row, each row's values mapped by Drizzle), not the finding: seven indexed
 * statements and a BEGIN and a COMMIT cost more than the JSON of one. One statement is one
 * snapshot without a transaction, and over a network one request. On a local file it runs
 * prepared once on a read connection of its own (syncReads), without a promise.
 */
const locale = sql.placeholder('locale');
const fallback = sql.placeholder('fallback');
const marketId = sql.placeholder('marketId');

/** Each array's elements have the keys (and values) of the rows the loaders' own queries read. */
const TEXTS = sql`(select json_group_array(json_object('productId', t.product_id, 'locale', t.locale, 'title', t.title,
    'description', t.description, 'seoTitle', t.seo_title, 'seoDescription', t.seo_description, 'options', json(t.options)))
  from product_translations t where t.product_id = "products"."id" and t.locale in (${locale}, ${fallback}))`;
const IMAGES = sql`(select json_group_array(json_object('productId', i.product_id, 'url', i.url, 'alt', i.alt,
    'alts', json(i.alts), 'width', i.width, 'height', i.height) order by i.position)
  from product_images i where i.product_id = "products"."id")`;
const VARIANTS = sql`(select json_group_array(json_object('id', v.id, 'productId', v.product_id, 'sku', v.sku, 'title', v.title,
    'options', json(v.options), 'amount', vp.amount, 'compareAtAmount', vp.compare_at_amount, 'quantity', il.quantity,
    'lowStockThreshold', il.low_stock_threshold, 'policy', il.policy) order by v.position)
  from product_variants v inner join variant_prices vp on vp.variant_id = v.id and vp.market_id = ${marketId}
  left join inventory_levels il on il.variant_id = v.id
  where v.product_id = "products"."id")`;
// Bundles priced in the market; the items of all its bundles (bundlesFrom keeps the priced ones').
const BUNDLES = sql`(select json_group_array(json_object('id', b.id, 'title', b.title, 'titles', json(b.titles),
    'amount', bp.amount) order by b.position)
  from bundles b inner join bundle_prices bp on bp.bundle_id = b.id and bp.market_id = ${marketId}
  where b.product_id = "products"."id")`;
const ITEMS = sql`(select json_group_array(json_object('bundleId', bi.bundle_id, 'variantId', bi.variant_id,
    'quantity', bi.quantity, 'status', ip.status, 'productHandle', ip.handle) order by bi.bundle_id, bi.position)
  from bundle_items bi inner join product_variants iv on iv.id = bi.variant_id inner join products ip on ip.id = iv.product_id
  where bi.bundle_id in (select b2.id from bundles b2 where b2.product_id = "products"."id"))`;
// The product's memberships (collection_products_product_idx), each collection by its key,
// sorted in navigation order: O(the product's collections).
const COLLECTIONS = sql`(select json_group_array(json_object('id', c.id, 'handle', c.handle, 'locale', ct.locale,
    'title', ct.title) order by c.position, c.id)
  from collection_products cp
  cross join collections c on c.id = cp.collection_id
  left join collection_translations ct on ct.collection_id = c.id and ct.locale in (${locale}, ${fallback})
  where cp.product_id = "products"."id" and c.site_id = "products"."site_id" and c.status = 'published')`;

function productQuery(database: DbOrTx) {
  return database
    .select({
      id: products.id,
      handle: products.handle,
      options: products.options,
      updatedAt: products.updatedAt,
      texts: sql<string>`${TEXTS}`,
      images: sql<string>`${IMAGES}`,
      variants: sql<string>`${VARIANTS}`,
      bundles: sql<string>`${BUNDLES}`,
      items: sql<string>`${ITEMS}`,
      collections: sql<string>`${COLLECTIONS}`,
    })
    .from(products)
    .where(and(isPublished(sql.placeholder('siteId')), eq(products.handle, sql.placeholder('handle'))))
    .prepare();
}

type Found = Pick<ProductRow, 'id' | 'handle' | 'options' | 'updatedAt'> & {
  texts: string;
  images: string;
  variants: string;
  bundles: string;
  items: string;
  collections: string;
};
type BundleRow = { id: string; title: string; titles: Record<string, string> | null; amount: number };
type BundleItemRow = { bundleId: string; variantId: string; quantity: number; status: string; productHandle: string };
type MembershipRow = { id: string; handle: string; locale: string | null; title: string | null };

/** The statement on a local file's read connection, once the query's SQL is known (it is the same for every database). */
let sync: ReturnType<typeof syncReads<'product'>> | undefined;

/**
 * The product's row (null: none), read at once on a local file (no promise), else through
 * the client: in a transaction (whose snapshot it must read), or on a database without
 * prepared reads (a remote one).
 */
async function readRow(database: DbOrTx, values: Record<string, unknown>): Promise<Found | null> {
  const query = prepared(database, 'catalog.productByHandle', productQuery);
  if (!inTransaction(database)) {
    const { sql: text, args } = statementOf(query, values) as { sql: string; args: unknown[] };
    sync ??= syncReads({ product: { sql: text, raw: true } });
    const read = (reader: SyncReader<'product'>) => (reader.get('product', ...args) as RawRow | undefined) ?? null;
    const raw = sync.now(database, read) ?? (await sync.run(database, read));
    if (raw !== undefined) return raw && foundOf(raw);
  }
  return ((await query.all(values))[0] as Found | undefined) ?? null;
}

/** A raw row: the select's columns in order, the product's options still JSON text. */
type RawRow = [string, string, string, number, string, string, string, string, string, string];

function foundOf([id, handle, options, updatedAt, texts, images, variants, bundleList, items, collections]: RawRow): Found {
  return {
    id,
    handle,
    options: JSON.parse(options) as ProductRow['options'],
    updatedAt,
    texts,
    images,
    variants,
    bundles: bundleList,
    items,
    collections,
  };
}

/** The product with everything its answer shows; null when the Site has no published product with the handle. */
export async function loadProductByHandle(database: DbOrTx, siteId: string, handle: string, choice: MarketChoice, fallback: string) {
  return loadedFrom(await readRow(database, { siteId, handle, locale: choice.locale, fallback, marketId: choice.market.id }), choice);
}

/**
 * The same read as a statement to send in a batch with others (over a network, one request
 * for several reads), and how to make its row (a result's first, if any) what
 * loadProductByHandle answers.
 */
export function productByHandleStatement(database: DbOrTx, siteId: string, handle: string, choice: MarketChoice, fallback: string) {
  const query = prepared(database, 'catalog.productByHandle', productQuery);
  const statement = statementOf(query, { siteId, handle, locale: choice.locale, fallback, marketId: choice.market.id }) as Statement;
  return {
    statement,
    loaded: (row: ArrayLike<unknown> | undefined) => loadedFrom(row ? foundOf(Array.from(row) as RawRow) : null, choice),
  };
}

function loadedFrom(found: Found | null, choice: MarketChoice) {
  if (!found) return null;
  const images = imagesFrom(JSON.parse(found.images) as Parameters<typeof imagesFrom>[0], false, choice.locale).get(found.id) ?? [];
  return {
    row: found,
    text: translationsFrom(JSON.parse(found.texts) as Translation[], choice.locale).get(found.id),
    images,
    variants: variantsFrom(JSON.parse(found.variants) as VariantRow[], choice).get(found.id) ?? [],
    bundles: bundlesFrom(JSON.parse(found.bundles) as BundleRow[], JSON.parse(found.items) as BundleItemRow[], choice),
    collections: collectionsFrom(JSON.parse(found.collections) as MembershipRow[], choice.locale),
  };
}

function bundlesFrom(list: BundleRow[], items: BundleItemRow[], choice: MarketChoice) {
  return (
    list
      .map((b) => ({ b, mine: items.filter((i) => i.bundleId === b.id) }))
      // a bundle with an unpublished item cannot be bought, so it does not exist for the API
      .filter(({ mine }) => mine.length > 0 && mine.every((i) => i.status === 'published'))
      .map(({ b, mine }) => ({
        id: b.id,
        title: bundleTitle(b.title, b.titles, choice.locale),
        items: mine.map((i) => ({ variantId: i.variantId, quantity: i.quantity, productHandle: i.productHandle })),
        price: toMoney(b.amount, choice.market.currency),
      }))
  );
}

/** The published collections a product is in, in navigation order, titled in the locale (else the fallback's, else the handle). */
function collectionsFrom(rows: MembershipRow[], locale: string) {
  const out = new Map<string, { handle: string; title: string }>();
  for (const row of rows) {
    const known = out.get(row.id);
    if (!known || (row.locale === locale && row.title !== null))
      out.set(row.id, { handle: row.handle, title: row.title ?? known?.title ?? row.handle });
  }
  return [...out.values()];
}
