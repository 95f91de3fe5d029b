import { z } from 'zod';
import { SITE_PAGES } from './catalog';
import { CurrencyCode, DecimalAmount, LocaleCode, MarketCode } from './catalog-document';

/**
 * The settings document: who runs a Site and how it sells, as `npm run site -- export` writes
 * it and `import` / `create` read it. Everything the shop's own code used to hard-code: name,
 * the business behind it, markets (countries, currency, languages, tax, shipping and pickup
 * with prices and delivery times) and the storefront's own texts per language, the legal
 * pages' Markdown among them. The JSON Schema in docs/site-settings.schema.json is generated
 * from this file.
 */

export const SETTINGS_FORMAT = 'site-delivery-settings';
export const SETTINGS_FORMAT_VERSION = 1;

/** The storefront's pages made of the settings' Markdown, by their key (and path: see LEGAL_PAGE_PATHS). */
export const SHOP_PAGES = SITE_PAGES;
export type ShopPageKey = (typeof SHOP_PAGES)[number];

/** The short texts of the storefront, each optional: a shop without one shows nothing in its place. */
export const SHOP_TEXT_KEYS = ['heroTitle', 'heroText', 'tagline', 'newsletterPitch'] as const;
export type ShopTextKey = (typeof SHOP_TEXT_KEYS)[number];

const SiteHandle = z
  .string()
  .max(64, 'at most 64 characters')
  .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'a handle: lower-case letters, digits and single hyphens (e.g. "demo")');

export const CountryCode = z.string().regex(/^[A-Z]{2}$/, 'an ISO 3166-1 alpha-2 country code such as "SE"');

/** A language ("de") or a locale ("de-DE"): texts keyed by a language serve each of its locales. */
export const TextLocale = z
  .string()
  .regex(/^[a-z]{2,3}(-[A-Z]{2})?$/, 'a language such as "de" or a locale such as "de-DE"')
  .meta({ description: 'A language (its texts serve every locale of it) or one locale (which then has texts of its own).', example: 'de' });

/** A tax rate in percent with at most two decimals ("19", "7.7", "0"). */
export const TaxRate = z
  .string()
  .regex(/^(100|\d{1,2})(\.\d{1,2})?$/, 'a tax rate in percent such as "19" or "7.7" (at most 2 decimals, 0–100)')
  .refine((v) => Number(v) <= 100, 'a tax rate of at most 100 percent')
  .meta({ description: 'Percent, as a decimal string.', example: '19' });

const line = (max: number) => z.string().trim().min(1, 'a text').max(max, `at most ${max} characters`);

export const PostalAddress = z
  .object({
    lines: z.array(line(200)).min(1, 'at least one line (street and number)').max(4, 'at most 4 lines'),
    postalCode: line(20),
    city: line(100),
    region: line(100).optional(),
    country: CountryCode,
  })
  .strict()
  .meta({
    id: 'SettingsPostalAddress',
    description: "The business's postal address: the imprint shows it and every mail's footer carries it.",
  });
export type PostalAddress = z.infer<typeof PostalAddress>;

export const ShippingOption = z
  .object({
    key: z
      .string()
      .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'a key: lower-case letters, digits and single hyphens (e.g. "standard")')
      .max(40, 'at most 40 characters')
      .meta({
        description: "Names the option within its market; the checkout's option id is made of it, so keep it when you edit the rest.",
      }),
    kind: z
      .enum(['delivery', 'pickup'])
      .meta({ description: "delivery: to the shopper's address; pickup: to a pickup point the shopper chooses." }),
    title: line(100),
    carrier: line(100),
    price: DecimalAmount.meta({ description: "In the market's currency, with at most its decimals." }),
    deliveryDays: z
      .object({
        min: z.number().int('a whole number of days').min(0, 'at least 0').max(365, 'at most 365'),
        max: z.number().int('a whole number of days').min(0, 'at least 0').max(365, 'at most 365'),
      })
      .strict()
      .refine((d) => d.max >= d.min, { message: 'max at least min', path: ['max'] })
      .meta({ description: 'Working days from order to delivery, shown at the checkout.' }),
  })
  .strict()
  .meta({ id: 'SettingsShippingOption' });
export type ShippingOption = z.infer<typeof ShippingOption>;

export const SettingsMarket = z
  .object({
    id: MarketCode,
    name: line(100).meta({ description: "The market's name where `names` has none." }),
    names: z.record(TextLocale, line(100)).optional().meta({ description: "Language or locale → the market's name, as shoppers see it." }),
    currency: CurrencyCode,
    countries: z.array(CountryCode).min(1, 'at least one country').max(300, 'at most 300 countries'),
    locales: z
      .array(LocaleCode)
      .min(1, 'at least one locale')
      .max(20, 'at most 20 locales')
      .meta({ description: 'The languages the market is shown in; the first is its default.' }),
    taxRate: TaxRate.meta({ description: 'The market\'s tax rate in percent (e.g. VAT "25").' }),
    countryTaxRates: z
      .record(CountryCode, TaxRate)
      .optional()
      .meta({ description: 'Countries of the market whose rate differs from `taxRate`.' }),
    pricesIncludeTax: z
      .boolean()
      .meta({ description: 'true: prices are shown and charged with tax in them (EU); false: tax is added at checkout.' }),
    shipping: z
      .array(ShippingOption)
      .max(20, 'at most 20 options')
      .meta({ description: 'Home delivery and pickup options, in the order the checkout lists them.' }),
  })
  .strict()
  .meta({ id: 'SettingsMarket' });
export type SettingsMarket = z.infer<typeof SettingsMarket>;

/** One language's (or locale's) texts; Markdown for the pages. */
export const ShopTexts = z
  .object({
    heroTitle: line(200).optional().meta({ description: "The home page's heading." }),
    heroText: line(1000).optional().meta({ description: "The paragraph under it (also the home page's description for search engines)." }),
    tagline: line(200).optional().meta({ description: "The line under the shop's name in the header." }),
    newsletterPitch: line(1000).optional().meta({ description: 'Why to sign up, above the newsletter form in the footer.' }),
    pages: z
      .object(
        Object.fromEntries(
          SHOP_PAGES.map((p) => [p, z.string().trim().min(1, 'a text').max(100_000, 'at most 100000 characters').optional()]),
        ) as Record<ShopPageKey, z.ZodOptional<z.ZodString>>,
      )
      .strict()
      .optional()
      .meta({
        description: "The pages' content in Markdown (headings, lists, links, emphasis; no HTML is kept beyond what Markdown makes).",
      }),
  })
  .strict()
  .meta({ id: 'SettingsTexts' });
export type ShopTexts = z.infer<typeof ShopTexts>;

export const SettingsDocument = z
  .object({
    format: z.literal(SETTINGS_FORMAT, `"${SETTINGS_FORMAT}"`),
    version: z.literal(SETTINGS_FORMAT_VERSION, `${SETTINGS_FORMAT_VERSION}`),
    handle: SiteHandle.meta({ description: "The Site's handle (what `--site` names); `create` makes a Site with it." }),
    name: line(200).meta({ description: "The shop's name, as shoppers see it." }),
    legalName: line(200)
      .nullable()
      .meta({ description: 'The business behind the shop (e.g. "Nordlys Home & Goods AB"); null: not given yet.' }),
    postalAddress: PostalAddress.nullable(),
    contactEmail: z
      .email('an e-mail address')
      .max(254, 'at most 254 characters')
      .nullable()
      .meta({ description: 'Where shoppers can write (the contact page and the imprint).' }),
    defaultMarket: MarketCode.meta({ description: 'The market a first visit sees when nothing else decides.' }),
    defaultLocale: LocaleCode.meta({ description: 'A locale of the default market: texts fall back to it.' }),
    markets: z.array(SettingsMarket).min(1, 'at least one market').max(50, 'at most 50 markets'),
    texts: z.record(TextLocale, ShopTexts).meta({
      description:
        "Language or locale → the storefront's texts. A locale is shown its own texts, else its language's, else the default locale's (its own, else its language's).",
    }),
  })
  .strict()
  .meta({ id: 'SettingsDocument' });
export type SettingsDocument = z.infer<typeof SettingsDocument>;

/** The published JSON Schema (docs/site-settings.schema.json): what an import accepts. */
export function settingsJsonSchemaText(): string {
  const schema = z.toJSONSchema(SettingsDocument, { io: 'input', target: 'draft-2020-12' });
  return `${JSON.stringify(schema, null, 2)}\n`;
}
