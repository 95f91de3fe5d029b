import { z } from 'zod';
import { DECIMAL_AMOUNT } from './common';

/**
 * The catalog document: everything a storefront shows of one Site's catalog, as
 * `npm run catalog -- export` writes it and `import` reads it. Ids are not part of it:
 * products and collections are matched by handle, variants by SKU (unique per Site),
 * bundles by their place in their product's list. The JSON Schema in
 * docs/catalog.schema.json is generated from this file.
 */

export const CATALOG_FORMAT = 'site-delivery-catalog';
export const CATALOG_FORMAT_VERSION = 1;

const HANDLE_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;

export const CatalogHandle = z
  .string()
  .max(200, 'at most 200 characters')
  .regex(HANDLE_PATTERN, 'a handle: lower-case letters, digits and single hyphens (e.g. "linen-tote-bag")')
  .meta({ description: 'URL handle, unique per Site.', example: 'linen-tote-bag' });

export const Sku = z
  .string()
  .min(1, 'a SKU')
  .max(100, 'at most 100 characters')
  // `=` separates SKU and quantity on the stock command line; spaces at the ends are typos.
  .regex(/^[^\s=](?:[^\u0000-\u001f=]*[^\s=])?$/, 'a SKU without "=", control characters or spaces at either end')
  .meta({ description: 'Stock keeping unit, unique per Site.', example: 'NLH-001-WHIT' });

/** A decimal string in the currency's minor-unit precision ("199.00" SEK, "1999" JPY). */
export const DecimalAmount = z
  .string()
  .regex(DECIMAL_AMOUNT, 'a decimal string such as "199.00" (no sign, no thousands separator)')
  .meta({ description: 'Decimal string in the market currency, at most its minor-unit digits.', example: '199.00' });

export const CurrencyCode = z.string().regex(/^[A-Z]{3}$/, 'an ISO 4217 currency code such as "SEK"');

export const LocaleCode = z
  .string()
  .regex(/^[a-z]{2,3}(-[A-Z]{2})?$/, 'a locale such as "sv-SE"')
  .meta({ description: 'A locale the Site offers in one of its markets.', example: 'sv-SE' });

export const MarketCode = z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'a market id such as "se"');

export const CatalogImage = z
  .object({
    url: z
      .string()
      .max(2048, 'at most 2048 characters')
      .regex(/^(https?:\/\/[^\s/]+(\/\S*)?|\/[^\s/]\S*)$/, 'an http(s) URL or a path on this site starting with "/"'),
    alt: z.string().max(500, 'at most 500 characters').meta({ description: 'Alt text; empty only for a purely decorative image.' }),
    alts: z.record(LocaleCode, z.string().min(1, 'an alt text').max(500, 'at most 500 characters')).optional().meta({
      description: "Locale → the alt text in that language, for the Site's locales where it is not `alt`; the others show `alt`.",
    }),
    width: z.number().int('a whole number of pixels').min(1, 'at least 1 pixel').max(20_000, 'at most 20000 pixels'),
    height: z.number().int('a whole number of pixels').min(1, 'at least 1 pixel').max(20_000, 'at most 20000 pixels'),
  })
  .strict()
  .meta({ id: 'CatalogImage' });
export type CatalogImage = z.infer<typeof CatalogImage>;

export const CatalogPrice = z
  .object({
    amount: DecimalAmount,
    currency: CurrencyCode.meta({ description: "Must be the market's currency." }),
    compareAt: DecimalAmount.nullable().optional().meta({ description: 'The "was" price, above `amount`; null for none.' }),
  })
  .strict()
  .meta({ id: 'CatalogPrice' });
export type CatalogPrice = z.infer<typeof CatalogPrice>;

export const StockPolicy = z.enum(['deny', 'preorder', 'continue']).meta({
  description: 'deny: stop selling at 0; preorder: keep selling at 0 as a preorder; continue: stock is not tracked.',
});
export type StockPolicy = z.infer<typeof StockPolicy>;

export const CatalogStock = z
  .object({
    quantity: z.number().int('a whole number').min(0, 'zero or more').max(1_000_000_000, 'at most 1000000000'),
    policy: StockPolicy.default('deny'),
    lowStockThreshold: z.number().int('a whole number').min(0, 'zero or more').max(1_000_000, 'at most 1000000').default(5),
  })
  .strict()
  .meta({ id: 'CatalogStock' });

export const CatalogVariant = z
  .object({
    sku: Sku,
    title: z.string().min(1, 'a title').max(300, 'at most 300 characters'),
    options: z.record(z.string(), z.string()).meta({ description: "Option name → value; exactly the product's options." }),
    prices: z
      .record(MarketCode, CatalogPrice)
      .meta({ description: 'Market id → price. A variant without a price in a market is not sold there.' }),
    // Optional so a file edited for texts or prices need not reset counts sales have moved since its export.
    stock: CatalogStock.optional().meta({
      description: "Leave out to keep the shop's stock as it is (a new variant then starts at 0, policy deny).",
    }),
  })
  .strict()
  .meta({ id: 'CatalogVariant' });
export type CatalogVariant = z.infer<typeof CatalogVariant>;

const OptionText = z.string().min(1, 'a text').max(100, 'at most 100 characters');

/** A locale's texts of a product's options, keyed by the option names and values of `options`. */
export const OptionTexts = z
  .record(
    z.string(),
    z
      .object({
        name: OptionText.optional().meta({ description: "The option's name in this locale." }),
        values: z.record(z.string(), OptionText).optional().meta({ description: 'Value (as in `options`) → its text in this locale.' }),
      })
      .strict(),
  )
  .meta({
    id: 'CatalogOptionTexts',
    description:
      "Option name (as in the product's `options`) → its name and values in this locale. A name or value left out shows as in `options`.",
    example: { Color: { name: 'Färg', values: { White: 'Vit', Sand: 'Sand' } } },
  });
export type OptionTexts = z.infer<typeof OptionTexts>;

export const ProductTexts = z
  .object({
    title: z.string().min(1, 'a title').max(300, 'at most 300 characters'),
    description: z
      .string()
      .max(20_000, 'at most 20000 characters')
      .meta({ description: 'Plain text; a blank line starts a new paragraph.' }),
    seoTitle: z.string().max(300, 'at most 300 characters').nullable().optional(),
    seoDescription: z.string().max(1000, 'at most 1000 characters').nullable().optional(),
    options: OptionTexts.optional(),
  })
  .strict();

export const CatalogBundle = z
  .object({
    title: z.string().min(1, 'a title').max(300, 'at most 300 characters'),
    titles: z.record(LocaleCode, z.string().min(1, 'a title').max(300, 'at most 300 characters')).optional().meta({
      description: "Locale → the title in that language, for the Site's locales where it is not `title`; the others show `title`.",
    }),
    items: z
      .array(z.object({ sku: Sku, quantity: z.number().int('a whole number').min(1, 'at least 1').max(1000, 'at most 1000') }).strict())
      .min(1, 'at least one item'),
    prices: z.record(MarketCode, z.object({ amount: DecimalAmount, currency: CurrencyCode }).strict()),
  })
  .strict()
  .meta({ id: 'CatalogBundle' });

const Attribute = z.string().min(1, 'a text').max(255, 'at most 255 characters');

/** One condition of an automated collection: a tag the product has, its type or its vendor (letter case aside). */
export const CollectionRule = z
  .string()
  .max(300, 'at most 300 characters')
  .regex(/^(tag|type|vendor):\S(.*\S)?$/, 'a rule such as "tag:wool", "type:Sweaters" or "vendor:Nordlys"')
  .meta({ example: 'tag:wool' });

export const CatalogProduct = z
  .object({
    handle: CatalogHandle,
    status: z.enum(['published', 'draft', 'archived']),
    featuredPosition: z
      .number()
      .int('a whole number')
      .min(1, 'at least 1')
      .nullable()
      .optional()
      .meta({ description: 'Featured on the storefront home in this order; null = not featured.' }),
    vendor: Attribute.nullable().optional().meta({ description: "Who makes it (Shopify's Vendor); what `vendor:` rules match." }),
    type: Attribute.nullable().optional().meta({ description: "Its kind (Shopify's Type); what `type:` rules match." }),
    tags: z
      .array(Attribute)
      .max(250, 'at most 250 tags')
      .optional()
      .meta({ description: "Its tags (Shopify's Tags); what `tag:` rules match." }),
    texts: z
      .record(LocaleCode, ProductTexts)
      .meta({ description: "Locale → texts. The Site's default locale is required; others fall back to it." }),
    images: z.array(CatalogImage).max(50, 'at most 50 images'),
    options: z
      .array(
        z
          .object({
            name: z.string().min(1, 'a name').max(100, 'at most 100 characters'),
            values: z.array(z.string().min(1, 'a value').max(100, 'at most 100 characters')).min(1, 'at least one value'),
          })
          .strict(),
      )
      .max(3, 'at most 3 options'),
    variants: z.array(CatalogVariant).min(1, 'at least one variant').max(1000, 'at most 1000 variants'),
    bundles: z.array(CatalogBundle).default([]),
  })
  .strict()
  .meta({ id: 'CatalogProduct' });
export type CatalogProduct = z.infer<typeof CatalogProduct>;

export const CatalogCollection = z
  .object({
    handle: CatalogHandle,
    status: z.enum(['published', 'draft']),
    image: CatalogImage.nullable(),
    texts: z.record(
      LocaleCode,
      z
        .object({
          title: z.string().min(1, 'a title').max(300, 'at most 300 characters'),
          description: z.string().max(20_000, 'at most 20000 characters'),
        })
        .strict(),
    ),
    rules: z
      .object({
        match: z.enum(['all', 'any']).default('all').meta({ description: 'all: a member matches every condition; any: at least one.' }),
        conditions: z.array(CollectionRule).min(1, 'at least one condition').max(60, 'at most 60 conditions'),
      })
      .strict()
      .nullable()
      .optional()
      .meta({
        description:
          "An automated collection (as Shopify's): its members are the products these rules match, in handle order, kept so by every import. Leave `products` out then.",
      }),
    products: z
      .array(CatalogHandle)
      .default([])
      .meta({ description: 'Member product handles in merchandised order (none for a collection with `rules`).' }),
  })
  .strict()
  .meta({ id: 'CatalogCollection' });
export type CatalogCollection = z.infer<typeof CatalogCollection>;

export const CatalogMarket = z
  .object({
    id: MarketCode,
    currency: CurrencyCode,
    names: z
      .record(LocaleCode, z.string().min(1, 'a name').max(100, 'at most 100 characters'))
      .optional()
      .meta({ description: "Locale → the market's name in it. Leave out to keep the shop's names; given, the market has exactly these." }),
  })
  .strict()
  .meta({ id: 'CatalogMarket' });
export type CatalogMarket = z.infer<typeof CatalogMarket>;

export const CatalogDocument = z
  .object({
    format: z.literal(CATALOG_FORMAT, `"${CATALOG_FORMAT}"`),
    version: z.literal(CATALOG_FORMAT_VERSION, `${CATALOG_FORMAT_VERSION}`),
    site: CatalogHandle.meta({ description: 'The Site it was exported from (informative; import names its target).' }),
    markets: z.array(CatalogMarket).meta({
      description: "The Site's markets at export (prices are checked against the target Site; `names`, when given, are imported).",
    }),
    products: z.array(CatalogProduct),
    collections: z.array(CatalogCollection).meta({ description: 'In storefront navigation order.' }),
  })
  .strict()
  .meta({ id: 'CatalogDocument', title: 'Site Delivery catalog document' });
export type CatalogDocument = z.infer<typeof CatalogDocument>;
/** What a document may omit (defaults) before parsing. */
export type CatalogDocumentInput = z.input<typeof CatalogDocument>;

/** The published JSON Schema (docs/catalog.schema.json): what an import accepts. */
export function catalogJsonSchemaText(): string {
  const schema = z.toJSONSchema(CatalogDocument, { io: 'input', target: 'draft-2020-12' });
  return `${JSON.stringify(schema, null, 2)}\n`;
}
