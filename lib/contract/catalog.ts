import { z } from 'zod';
import { AvailabilityStatus, Handle, Image, Money, page, Timestamp } from './common';

export const Market = z
  .object({
    id: z.string(),
    name: z.string().meta({ description: "The market's name in the answer's locale, else in the Site's default locale." }),
    countries: z.array(z.string()),
    currency: z.string(),
    locales: z.array(z.string()),
    defaultLocale: z.string(),
    taxInclusive: z.boolean(),
  })
  .meta({ id: 'Market' });
export type Market = z.infer<typeof Market>;

const nullableText = (description: string) => z.string().nullable().meta({ description });

/** The storefront's own short texts in one locale, each null where the Site's settings have none. */
export const SiteTexts = z
  .object({
    heroTitle: nullableText("The home page's heading."),
    heroText: nullableText('The paragraph under it.'),
    tagline: nullableText("The line under the shop's name."),
    newsletterPitch: nullableText('Why to sign up for the newsletter.'),
  })
  .meta({ id: 'SiteTexts' });
export type SiteTexts = z.infer<typeof SiteTexts>;

export const SiteBusiness = z
  .object({
    legalName: nullableText('The business behind the shop.'),
    postalAddress: z
      .object({ lines: z.array(z.string()), postalCode: z.string(), city: z.string(), region: z.string().optional(), country: z.string() })
      .nullable()
      .meta({ description: 'Where the business can be written to.' }),
    contactEmail: nullableText('Where shoppers can write.'),
  })
  .meta({ id: 'SiteBusiness', description: 'Who runs the shop, as its imprint names it; null where the settings do not say.' });
export type SiteBusiness = z.infer<typeof SiteBusiness>;

/** The pages a storefront shows from the Site's settings (Markdown). */
export const SITE_PAGES = ['imprint', 'privacy', 'terms', 'withdrawal', 'shipping', 'returns', 'contact'] as const;
export type SitePageKey = (typeof SITE_PAGES)[number];

export const SitePage = z
  .object({
    key: z.enum(SITE_PAGES),
    markdown: z.string().nullable().meta({ description: "The page in Markdown; null when the Site's settings have no text for it." }),
    textLocale: z.string().nullable().meta({
      description: "The locale or language the text is written for: `locale`'s own, else its language's, else the Site's default locale's.",
    }),
  })
  .meta({ id: 'SitePage' });
export type SitePage = z.infer<typeof SitePage>;

export const Site = z
  .object({
    id: z.string(),
    handle: z.string(),
    name: z.string(),
    defaultMarket: z.string(),
    defaultLocale: z.string(),
    locale: z.string().meta({ description: "The locale the markets are named in: `locale` as asked for, else the Site's default locale." }),
    markets: z.array(Market),
    business: SiteBusiness.optional(),
    texts: z.record(z.string(), SiteTexts).optional().meta({
      description:
        "Every locale the Site offers → its storefront texts (a locale without its own shows its language's, else the default locale's).",
    }),
    page: SitePage.optional().meta({ description: 'The page asked for with `page`, in `locale`.' }),
  })
  .meta({ id: 'Site' });
export type Site = z.infer<typeof Site>;

export const PriceRange = z.object({ min: Money, max: Money }).meta({ id: 'PriceRange' });

/**
 * On a list narrowed by variant filters: the product as the filters see it, so a front end
 * shows the black bag's picture, price and stock under Color:Black, not the beige one's.
 */
export const ProductMatch = z
  .object({
    variantIds: z
      .array(z.string())
      .meta({ description: "The product's variants that pass every variant filter of the list, in display order (at least one)." }),
    image: Image.nullable().meta({
      description:
        "The image that shows the first of them that has one (as a Variant's `image` is found); null when none does: show `featuredImage` then.",
    }),
    priceRange: PriceRange.meta({ description: 'The lowest and highest price among them.' }),
    compareAtPrice: Money.nullable().meta({ description: 'The compare-at price of the lowest-priced of them, when it has one.' }),
    availability: AvailabilityStatus.meta({ description: 'The best status among them.' }),
  })
  .meta({
    id: 'ProductMatch',
    description:
      "The variants of a product that a list's `available`, `priceMin`/`priceMax` and `option` filters matched together, and what they look like.",
  });
export type ProductMatch = z.infer<typeof ProductMatch>;

export const ProductSummary = z
  .object({
    id: z.string(),
    handle: Handle,
    title: z.string(),
    featuredImage: Image.nullable(),
    priceRange: PriceRange,
    compareAtPrice: Money.nullable().meta({ description: "The lowest variant's compare-at price, when it has one." }),
    availability: AvailabilityStatus.meta({ description: "The best status among the product's variants." }),
    updatedAt: Timestamp,
    match: ProductMatch.optional().meta({
      description:
        'Only in a products list filtered by `available`, `priceMin`/`priceMax` or `option`: the variants that passed those filters and their image, price and availability, ' +
        "to show instead of the whole product's. The other fields still describe the whole product.",
    }),
  })
  .meta({ id: 'ProductSummary' });
export type ProductSummary = z.infer<typeof ProductSummary>;

export const Variant = z
  .object({
    id: z.string(),
    sku: z.string(),
    title: z.string().meta({
      description:
        'In the locale: a title made of the option values ("White / S") is built from the localized values; a title of its own is shown as stored.',
    }),
    options: z
      .record(z.string(), z.string())
      .meta({ description: "Option name → value, both in the locale (as the product's `options` name them)." }),
    price: Money,
    compareAtPrice: Money.nullable(),
    availability: AvailabilityStatus,
    image: Image.nullable().meta({
      description:
        'The product image that shows this variant: the first whose alt text names one of the variant\'s option values (as a word, any case, e.g. "Mug in sand" for Color: Sand). Null when no image does; show the product\'s first image then.',
    }),
  })
  .meta({ id: 'Variant' });
export type Variant = z.infer<typeof Variant>;

export const ProductOption = z.object({ name: z.string(), values: z.array(z.string()) }).meta({
  id: 'ProductOption',
  description:
    "An option and its values in the locale (else the Site's default locale, else as stored), in display order. The `option` filter and facets use these texts.",
});

export const Bundle = z
  .object({
    id: z.string(),
    title: z.string().meta({ description: 'In the locale asked for when the bundle has a title there, else as the merchant wrote it.' }),
    items: z.array(
      z.object({
        variantId: z.string(),
        quantity: z.number().int(),
        productHandle: Handle.meta({
          description: 'The handle of the product the variant belongs to, so a front end can name and link the item with one product read.',
        }),
      }),
    ),
    price: Money,
  })
  .meta({ id: 'Bundle' });

export const Product = z
  .object({
    id: z.string(),
    handle: Handle,
    title: z.string(),
    description: z.string(),
    images: z.array(Image),
    options: z.array(ProductOption),
    variants: z.array(Variant),
    bundles: z.array(Bundle),
    collections: z.array(z.object({ handle: Handle, title: z.string() })).meta({
      description:
        'The published collections the product is in, in navigation order, titled in the requested locale: a front end shows "more from this collection" with one list read (`collection=<handle>`).',
    }),
    seo: z.object({ title: z.string(), description: z.string() }),
    updatedAt: Timestamp,
  })
  .meta({ id: 'Product' });
export type Product = z.infer<typeof Product>;

export const CatalogProduct = z
  .object({
    id: z.string(),
    handle: Handle,
    title: z.string(),
    featuredImage: Image.nullable(),
    options: z.array(ProductOption),
    variants: z.array(Variant),
    updatedAt: Timestamp,
  })
  .meta({ id: 'CatalogProduct' });
export type CatalogProduct = z.infer<typeof CatalogProduct>;

export const CollectionSummary = z
  .object({
    id: z.string(),
    handle: Handle,
    title: z.string(),
    description: z.string(),
    image: Image.nullable(),
    productCount: z.number().int(),
  })
  .meta({ id: 'CollectionSummary' });
export type CollectionSummary = z.infer<typeof CollectionSummary>;

export const Collection = z
  .object({
    id: z.string(),
    handle: Handle,
    title: z.string(),
    description: z.string(),
    image: Image.nullable(),
    products: z.array(ProductSummary),
    page: page(ProductSummary).shape.page,
  })
  .meta({ id: 'Collection', description: 'A collection with one page of its members in stored order.' });
export type Collection = z.infer<typeof Collection>;

export const Availability = z
  .object({
    variantId: z.string(),
    status: AvailabilityStatus,
    purchasable: z.boolean(),
    canSubscribe: z.boolean(),
    asOf: Timestamp,
  })
  .meta({ id: 'Availability' });
export type Availability = z.infer<typeof Availability>;

export const AvailabilityBatch = z
  .object({
    data: z.array(Availability.omit({ asOf: true })),
    notFound: z.array(z.string()),
    asOf: Timestamp,
  })
  .meta({ id: 'AvailabilityBatch' });
export type AvailabilityBatch = z.infer<typeof AvailabilityBatch>;

export const StorefrontSnapshot = z
  .object({
    version: z.string().meta({ description: 'Changes whenever anything in the snapshot changes.' }),
    site: z.object({ id: z.string(), handle: z.string(), name: z.string() }),
    market: Market,
    locale: z.string(),
    markets: z.array(Market),
    navigation: z.array(z.object({ handle: z.string(), title: z.string(), productCount: z.number().int(), image: Image.nullable() })),
    featured: z.array(ProductSummary),
  })
  .meta({ id: 'StorefrontSnapshot' });
export type StorefrontSnapshot = z.infer<typeof StorefrontSnapshot>;

export const ProductPage = page(ProductSummary).meta({ id: 'ProductPage' });
/** Counts over a filtered products list, each facet counted without its own filter. */
export const ProductFacets = z
  .object({
    options: z.array(
      z.object({
        name: z.string().meta({ description: 'The option name in the locale, as products show it.' }),
        values: z.array(
          z.object({
            value: z.string().meta({ description: 'In the locale; send `option=name:value` back to filter.' }),
            count: z.number().int().meta({ description: 'Products with a variant of this value.' }),
          }),
        ),
      }),
    ),
    availability: z.object({
      available: z.number().int().meta({ description: 'Products that can be bought now.' }),
      unavailable: z.number().int(),
    }),
    price: PriceRange.nullable().meta({
      description: 'The lowest and highest variant price among the products; null when there are none.',
    }),
  })
  .meta({ id: 'ProductFacets' });
export type ProductFacets = z.infer<typeof ProductFacets>;

/** A products list page; `facets` only when asked for (`facets=true`). */
export const ProductListPage = page(ProductSummary).extend({ facets: ProductFacets.optional() }).meta({ id: 'ProductListPage' });
export type ProductListPage = z.infer<typeof ProductListPage>;
export const CatalogPage = page(CatalogProduct).meta({ id: 'CatalogPage' });
export const CollectionPage = page(CollectionSummary).meta({ id: 'CollectionPage' });
