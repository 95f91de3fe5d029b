import { z } from 'zod';
import { defineOperation } from '../operation';
import { DECIMAL_AMOUNT, HandleParams, MarketQuery, pageQuery } from '../common';
import {
  Availability,
  AvailabilityBatch,
  CatalogPage,
  Collection,
  CollectionPage,
  Product,
  ProductListPage,
  Site,
  SITE_PAGES,
  StorefrontSnapshot,
} from '../catalog';

const localised = ['ETag', 'Cache-Control', 'Content-Language'];
const marketErrors = ['validation_failed', 'unknown_market', 'unsupported_locale'] as const;

export const SiteQuery = z.object({
  locale: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .meta({ description: "A locale any of the Site's markets offers: market names are given in it. Default: the Site's default locale." }),
  page: z.enum(SITE_PAGES).optional().meta({
    description:
      "One of the shop's pages (imprint, privacy, terms, withdrawal, shipping, returns, contact): the answer carries its Markdown in `locale` as `page`.",
  }),
});

export const getSite = defineOperation({
  operationId: 'getSite',
  method: 'get',
  path: '/site',
  scope: 'core',
  tag: 'Storefront',
  summary: 'The Site: identity, markets, locales, the business behind it and its storefront texts',
  query: SiteQuery,
  success: {
    status: 200,
    description: 'The Site the credential belongs to, its markets named in `locale`.',
    schema: Site,
    headers: localised,
  },
  errors: ['validation_failed', 'unsupported_locale'],
});

export const getStorefront = defineOperation({
  operationId: 'getStorefrontSnapshot',
  method: 'get',
  path: '/commerce/storefront',
  scope: 'core',
  tag: 'Storefront',
  summary: 'Storefront snapshot: identity, market, navigation, featured products',
  description: 'Read in one database transaction. `version` changes whenever anything in it changes.',
  query: MarketQuery,
  success: { status: 200, description: 'The snapshot.', schema: StorefrontSnapshot, headers: localised },
  errors: [...marketErrors],
});

/** The most values one product-list filter takes (a cart's lines: the storefront's own cap). */
export const MAX_FILTER_VALUES = 100;
/** Variant ids one availability batch may name. */
export const MAX_AVAILABILITY_BATCH = 100;
/** The longest list text taken: 100 ids of the longest kind with their commas, and room to spare. */
export const MAX_ID_LIST_CHARS = 8192;

/** `a,b,c`: trimmed, empties and repeats dropped, then 1–MAX_FILTER_VALUES values of `item`. */
function commaList(item: z.ZodString, what: string) {
  return z
    .string()
    .max(MAX_ID_LIST_CHARS, `At most ${MAX_ID_LIST_CHARS} characters.`)
    .transform((list) => [
      ...new Set(
        list
          .split(',')
          .map((v) => v.trim())
          .filter((v) => v.length > 0),
      ),
    ])
    .pipe(z.array(item).min(1, `Give at least one ${what}.`).max(MAX_FILTER_VALUES, `Give at most ${MAX_FILTER_VALUES} distinct ${what}s.`))
    .optional()
    .meta({
      description: `Comma-separated ${what}s, 1–${MAX_FILTER_VALUES} after folding duplicates, at most ${MAX_ID_LIST_CHARS} characters in all.`,
      override: { type: 'string' },
    });
}

/**
 * Narrows a product list to the products named (a cart reading all its lines in one call).
 * Filters combine with AND; a value that names nothing published in the market simply
 * matches nothing. Paging and order are unchanged.
 */
export const ProductFilterQuery = z.object({
  handles: commaList(z.string().min(1).max(200), 'product handle'),
  variantIds: commaList(z.string().min(1).max(200), 'variant id'),
});
export type ProductFilterQuery = z.infer<typeof ProductFilterQuery>;

/** The orders a product list can be asked for (`relevance` needs `q`, and is its default). */
export const PRODUCT_SORTS = ['relevance', 'price-asc', 'price-desc', 'newest', 'title-asc'] as const;
export type ProductSort = (typeof PRODUCT_SORTS)[number];

/** Search and order for the products list (the catalog feed keeps its handle order). */
export const ProductSearchQuery = z.object({
  q: z
    .string()
    .trim()
    .min(1, 'Give at least one character to search for.')
    .max(200)
    .optional()
    .meta({
      description:
        "Full-text search over the product's title, description, option values (as the requested locale shows them, and as stored) and SKUs, in the requested locale. " +
        'Every word must match; the last word matches as a prefix; a part of 3+ characters inside a word (a compound) matches in titles, option values and SKUs; ' +
        'and one typo is forgiven in words of 5 or more letters. ' +
        'Search syntax characters are plain text. 1–200 characters.',
    }),
  sort: z
    .enum(PRODUCT_SORTS)
    .optional()
    .meta({
      description:
        'Order of the list: `relevance` (the default with `q`; without `q` it is handle order), `price-asc` and `price-desc` (the lowest variant price in the market; with `available`, `priceMin`/`priceMax` or `option`, the lowest among the variants that pass them, as `match` shows), ' +
        "`newest`, `title-asc` (in the locale's collation). Ties are in handle order. Without `q` and `sort`: handle order.",
    }),
});

/** The most `option` filters one list takes. */
export const MAX_OPTION_FILTERS = 20;
const Amount = (which: string) =>
  z
    .string()
    .regex(DECIMAL_AMOUNT, 'A decimal amount such as 199.00.')
    .optional()
    .meta({ description: `${which} variant price, inclusive: a decimal string in the market's currency (e.g. \`199.00\`).` });

/**
 * Narrowing filters for the products list. They hold for one variant together: a product is
 * listed when one of its variants (priced in the market) is purchasable, priced in the range
 * and has a value of each option asked for. Values of one option are OR, different options and
 * different filters AND. Each listed product's `match` shows the variants that passed.
 */
export const ProductNarrowingQuery = z.object({
  available: z
    .enum(['true'])
    .optional()
    .meta({ description: '`true`: only products with a variant that can be bought now (in stock, low stock or preorder).' }),
  priceMin: Amount('Lowest'),
  priceMax: Amount('Highest'),
  option: z
    .array(
      z
        .string()
        .max(200)
        .regex(/^[^:]+:.+$/, 'Give an option as Name:Value, e.g. Color:Sand.'),
    )
    .min(1)
    .max(MAX_OPTION_FILTERS)
    .optional()
    .meta({
      description: `\`Name:Value\` (e.g. \`Color:Sand\`), repeatable up to ${MAX_OPTION_FILTERS} times: values of one option are OR, different options AND. Names and values are matched exactly, as the locale shows them (the product\'s \`options\` and the facets give them): \`Färg:Vit\` in \`sv-SE\`, \`Farbe:Weiß\` in \`de-DE\`.`,
    }),
  collection: z.string().min(1).max(200).optional().meta({ description: 'Only products in the published collection with this handle.' }),
  facets: z.enum(['true']).optional().meta({
    description:
      '`true`: add `facets`, counts over the filtered list, each facet counted without its own filter, by the variants that pass the others.',
  }),
});
export type ProductNarrowingQuery = z.infer<typeof ProductNarrowingQuery>;

export const ProductListQuery = MarketQuery.extend(pageQuery(100).shape)
  .extend(ProductFilterQuery.shape)
  .extend(ProductSearchQuery.shape)
  .extend(ProductNarrowingQuery.shape);
export const CatalogListQuery = MarketQuery.extend(pageQuery(250).shape).extend(ProductFilterQuery.shape);

export const listCatalog = defineOperation({
  operationId: 'listCatalog',
  method: 'get',
  path: '/commerce/catalog',
  scope: 'core',
  tag: 'Catalog',
  summary: 'The catalog with variants, prices and availability (for feeds and sync)',
  query: CatalogListQuery,
  success: { status: 200, description: 'A page of products, ordered by handle.', schema: CatalogPage, headers: localised },
  errors: [...marketErrors],
});

export const listProducts = defineOperation({
  operationId: 'listProducts',
  method: 'get',
  path: '/commerce/products',
  scope: 'core',
  tag: 'Catalog',
  summary: 'Published products',
  description:
    '`handles` and `variantIds` narrow the list to the products named (up to 100 of each). `q` searches, `sort` orders; the cursor keeps its place under every order.',
  query: ProductListQuery,
  success: {
    status: 200,
    description: 'A page of product summaries, in the order asked for (handle order by default).',
    schema: ProductListPage,
    headers: localised,
  },
  errors: [...marketErrors],
});

export const getProduct = defineOperation({
  operationId: 'getProduct',
  method: 'get',
  path: '/commerce/products/{handle}',
  scope: 'core',
  tag: 'Catalog',
  summary: 'A product by handle',
  params: HandleParams,
  query: MarketQuery,
  description:
    'A published product without a price in the market is not sold there: 422 `not_sold_in_market`, whose `product` ' +
    '(`handle`, `title` in `locale`) and `soldIn` (the ids of the markets that sell it, maybe none) let a front end say so. ' +
    '404 `not_found` is for no published product of that handle.',
  success: { status: 200, description: 'The product.', schema: Product, headers: [...localised, 'Cache-Tag'] },
  errors: ['not_found', 'not_sold_in_market', ...marketErrors],
});

export const listCollections = defineOperation({
  operationId: 'listCollections',
  method: 'get',
  path: '/commerce/collections',
  scope: 'core',
  tag: 'Catalog',
  summary: 'Collections in navigation order',
  query: MarketQuery.extend(pageQuery(100).shape),
  success: { status: 200, description: 'A page of collections.', schema: CollectionPage, headers: localised },
  errors: [...marketErrors],
});

export const getCollection = defineOperation({
  operationId: 'getCollection',
  method: 'get',
  path: '/commerce/collections/{handle}',
  scope: 'core',
  tag: 'Catalog',
  summary: 'A collection and a page of its products in stored order',
  params: HandleParams,
  query: MarketQuery.extend(pageQuery(100).shape),
  success: { status: 200, description: 'The collection.', schema: Collection, headers: localised },
  errors: ['not_found', ...marketErrors],
});

export const VariantIdParams = z.object({ variantId: z.string().min(1).max(200) });

export const getAvailability = defineOperation({
  operationId: 'getAvailability',
  method: 'get',
  path: '/commerce/availability/{variantId}',
  scope: 'core',
  tag: 'Availability',
  summary: 'Coarse availability of one variant',
  params: VariantIdParams,
  success: {
    status: 200,
    description: "The variant's availability. Exact quantities are never exposed.",
    schema: Availability,
    headers: ['ETag', 'Cache-Control'],
  },
  errors: ['not_found', 'validation_failed'],
});

export const AvailabilityBatchQuery = z.object({
  variantIds: z
    .string()
    .max(MAX_ID_LIST_CHARS, `At most ${MAX_ID_LIST_CHARS} characters.`)
    .transform((list) =>
      list
        .split(',')
        .map((id) => id.trim())
        .filter((id) => id.length > 0),
    )
    .pipe(z.array(z.string().max(200)).min(1, 'Give at least one variant id.'))
    .meta({
      description:
        `Variant ids, comma-separated (\`variantIds=var_a,var_b\`): 1–${MAX_AVAILABILITY_BATCH} distinct ids (duplicates are folded; more than ${MAX_AVAILABILITY_BATCH} is ` +
        `\`too_many_variant_ids\`), at most ${MAX_ID_LIST_CHARS} characters in all.`,
      param: { style: 'form', explode: false },
      override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
        delete jsonSchema.maxLength;
        Object.assign(jsonSchema, { type: 'array', items: { type: 'string', minLength: 1, maxLength: 200 }, minItems: 1 });
      },
    }),
});

export const getAvailabilityBatch = defineOperation({
  operationId: 'getAvailabilityBatch',
  method: 'get',
  path: '/commerce/availability',
  scope: 'core',
  tag: 'Availability',
  summary: `Coarse availability of up to ${MAX_AVAILABILITY_BATCH} variants`,
  query: AvailabilityBatchQuery,
  success: {
    status: 200,
    description: 'Availability of the known variants; the rest are listed in `notFound`.',
    schema: AvailabilityBatch,
    headers: ['ETag', 'Cache-Control'],
  },
  errors: ['validation_failed', 'too_many_variant_ids'],
});

export const readOperations = [
  getSite,
  getStorefront,
  listCatalog,
  listProducts,
  getProduct,
  listCollections,
  getCollection,
  getAvailabilityBatch,
  getAvailability,
];
