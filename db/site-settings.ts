import type { PostalAddress } from './schema';
import * as schema from './schema';

/**
 * A Site's settings as rows: what the seed writes for the demo files (db/seed/sites/*.json) and
 * what `npm run site -- import|create` compares and writes (lib/commerce/site-settings). The
 * document is checked before it gets here (lib/contract/site-settings-document.ts, and the
 * domain's checks against the shop); this is only the mapping, in one place so the seed and
 * an import can never write the same file differently.
 */
export type SettingsInput = {
  name: string;
  legalName: string | null;
  postalAddress: PostalAddress | null;
  contactEmail: string | null;
  defaultMarket: string;
  defaultLocale: string;
  markets: {
    id: string;
    name: string;
    names?: Record<string, string>;
    currency: string;
    countries: string[];
    locales: string[];
    taxRate: string;
    countryTaxRates?: Record<string, string>;
    pricesIncludeTax: boolean;
    shipping: {
      key: string;
      kind: 'delivery' | 'pickup';
      title: string;
      carrier: string;
      price: string;
      deliveryDays: { min: number; max: number };
    }[];
  }[];
  texts: Record<
    string,
    {
      heroTitle?: string;
      heroText?: string;
      tagline?: string;
      newsletterPitch?: string;
      pages?: Partial<Record<string, string>>;
    }
  >;
};

export type SettingsRows = {
  site: {
    name: string;
    legalName: string | null;
    postalAddress: PostalAddress | null;
    contactEmail: string | null;
    defaultMarketId: string;
    defaultLocale: string;
  };
  markets: (typeof schema.markets.$inferInsert)[];
  marketCountries: (typeof schema.marketCountries.$inferInsert)[];
  marketLocales: (typeof schema.marketLocales.$inferInsert)[];
  marketTranslations: (typeof schema.marketTranslations.$inferInsert)[];
  shippingRates: (typeof schema.shippingRates.$inferInsert)[];
  siteTexts: (typeof schema.siteTexts.$inferInsert)[];
};

/** The text keys of a page in site_texts: `page.imprint`. */
export const PAGE_TEXT_PREFIX = 'page.';

/** Readable, stable ids: `ship_se_standard` for the demo, `ship_outlet_se_standard` for others. */
export function shippingRateId(siteHandle: string, market: string, key: string): string {
  return siteHandle === 'demo' ? `ship_${market}_${key}` : `ship_${siteHandle}_${market}_${key}`;
}

/** "19" → 1900, "7.7" → 770 (basis points). */
export function taxRateBp(percent: string): number {
  const [whole = '0', fraction = ''] = percent.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0').slice(0, 2));
}

/** 1900 → "19", 770 → "7.7". */
export function taxRatePercent(bp: number): string {
  const whole = Math.floor(bp / 100);
  const fraction = String(bp % 100)
    .padStart(2, '0')
    .replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : String(whole);
}

function minorDigits(currency: string): number {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

/** A checked decimal amount in the currency's minor units ("4.95" EUR → 495). */
export function minorUnits(amount: string, currency: string): number {
  const digits = minorDigits(currency);
  const [whole = '0', fraction = ''] = amount.split('.');
  return Number(whole + fraction.padEnd(digits, '0'));
}

/** The locale's language: "de-DE" → "de". */
export const languageOf = (locale: string) => locale.split('-')[0]!;

/** Every locale the Site offers, in market order. */
export function siteLocales(input: Pick<SettingsInput, 'markets'>): string[] {
  return [...new Set(input.markets.flatMap((m) => m.locales))];
}

export function settingsRows(input: SettingsInput, site: { id: string; handle: string }): SettingsRows {
  const siteId = site.id;
  const locales = siteLocales(input);
  const texts: SettingsRows['siteTexts'] = [];
  for (const [locale, t] of Object.entries(input.texts)) {
    for (const key of ['heroTitle', 'heroText', 'tagline', 'newsletterPitch'] as const) {
      const body = t[key];
      if (body !== undefined) texts.push({ siteId, locale, key, body });
    }
    for (const [page, body] of Object.entries(t.pages ?? {})) {
      if (body !== undefined) texts.push({ siteId, locale, key: `${PAGE_TEXT_PREFIX}${page}`, body });
    }
  }
  return {
    site: {
      name: input.name,
      legalName: input.legalName,
      postalAddress: input.postalAddress,
      contactEmail: input.contactEmail,
      defaultMarketId: input.defaultMarket,
      defaultLocale: input.defaultLocale,
    },
    markets: input.markets.map((m, i) => ({
      siteId,
      id: m.id,
      name: m.name,
      currency: m.currency,
      defaultLocale: m.locales[0]!,
      taxInclusive: m.pricesIncludeTax,
      taxRateBp: taxRateBp(m.taxRate),
      position: i + 1,
    })),
    marketCountries: input.markets.flatMap((m) =>
      m.countries.map((country, i) => ({
        siteId,
        country,
        marketId: m.id,
        position: i + 1,
        taxRateBp: m.countryTaxRates?.[country] !== undefined ? taxRateBp(m.countryTaxRates[country]) : null,
      })),
    ),
    marketLocales: input.markets.flatMap((m) => m.locales.map((locale, i) => ({ siteId, marketId: m.id, locale, position: i + 1 }))),
    marketTranslations: input.markets.flatMap((m) =>
      locales.flatMap((locale) => {
        const name = m.names?.[locale] ?? m.names?.[languageOf(locale)];
        return name === undefined ? [] : [{ siteId, marketId: m.id, locale, name }];
      }),
    ),
    shippingRates: input.markets.flatMap((m) =>
      m.shipping.map((r, i) => ({
        id: shippingRateId(site.handle, m.id, r.key),
        siteId,
        marketId: m.id,
        kind: r.kind,
        title: r.title,
        carrier: r.carrier,
        amount: minorUnits(r.price, m.currency),
        minDays: r.deliveryDays.min,
        maxDays: r.deliveryDays.max,
        position: i + 1,
      })),
    ),
    siteTexts: texts,
  };
}
