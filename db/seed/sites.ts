/** The two seeded Sites: markets, notification flows and the built-in shipping table. */
export type MarketId = 'se' | 'de' | 'us';

export type MarketDef = {
  id: MarketId;
  name: string;
  /** The name in each copy language (market_translations, one row per locale of the Site). */
  names: { en: string; sv: string; de: string };
  currency: 'SEK' | 'EUR' | 'USD';
  countries: string[];
  locales: string[];
  defaultLocale: string;
  taxInclusive: boolean;
  taxRateBp: number;
  /** Countries whose tax rate is not the market's (basis points). */
  countryTaxRateBp?: Record<string, number>;
};

export type FlowDef = { handle: string; channel: 'email' | 'sms'; enabled: boolean; isDefault: boolean };

export type SiteDef = {
  handle: 'demo' | 'outlet';
  name: string;
  defaultMarket: MarketId;
  defaultLocale: string;
  markets: MarketDef[];
  flows: FlowDef[];
};

const SE: MarketDef = {
  id: 'se', name: 'Sweden', names: { en: 'Sweden', sv: 'Sverige', de: 'Schweden' }, currency: 'SEK', countries: ['SE'], locales: ['sv-SE', 'en-SE'],
  defaultLocale: 'sv-SE', taxInclusive: true, taxRateBp: 2500,
};
const DE: MarketDef = {
  id: 'de', name: 'Germany & Austria', names: { en: 'Germany & Austria', sv: 'Tyskland och Österrike', de: 'Deutschland & Österreich' }, currency: 'EUR', countries: ['DE', 'AT'], locales: ['de-DE', 'en-DE'],
  // Prices include VAT; Austria's standard rate is 20%, Germany's 19%.
  defaultLocale: 'de-DE', taxInclusive: true, taxRateBp: 1900, countryTaxRateBp: { AT: 2000 },
};
const US: MarketDef = {
  id: 'us', name: 'United States', names: { en: 'United States', sv: 'USA', de: 'Vereinigte Staaten' }, currency: 'USD', countries: ['US'], locales: ['en-US'],
  defaultLocale: 'en-US', taxInclusive: false, taxRateBp: 0,
};

const BACK_IN_STOCK: FlowDef = { handle: 'back-in-stock-email', channel: 'email', enabled: true, isDefault: true };

export const DEMO_SITE: SiteDef = {
  handle: 'demo', name: 'Nordlys Home & Goods', defaultMarket: 'se', defaultLocale: 'sv-SE',
  markets: [SE, DE, US],
  flows: [BACK_IN_STOCK, { handle: 'sms-legacy', channel: 'sms', enabled: false, isDefault: false }],
};

export const OUTLET_SITE: SiteDef = {
  handle: 'outlet', name: 'Nordlys Outlet', defaultMarket: 'se', defaultLocale: 'sv-SE',
  markets: [SE],
  flows: [BACK_IN_STOCK],
};

/** Locale → which copy language it shows. */
export function copyLanguage(locale: string): 'en' | 'sv' | 'de' {
  if (locale.startsWith('sv')) return 'sv';
  if (locale.startsWith('de')) return 'de';
  return 'en';
}

export type RateDef = {
  key: 'standard' | 'express' | 'pickup';
  kind: 'delivery' | 'pickup';
  title: string;
  carrier: string;
  amount: number;
  minDays: number;
  maxDays: number;
};

/** Home delivery in two speeds and a pickup-point rate per market, in minor units. */
export const SHIPPING_RATES: Record<MarketId, RateDef[]> = {
  se: [
    { key: 'standard', kind: 'delivery', title: 'Standard', carrier: 'PostNord', amount: 4900, minDays: 3, maxDays: 5 },
    { key: 'express', kind: 'delivery', title: 'Express', carrier: 'DHL Express', amount: 9900, minDays: 1, maxDays: 2 },
    { key: 'pickup', kind: 'pickup', title: 'Pickup point', carrier: 'PostNord', amount: 3900, minDays: 2, maxDays: 4 },
  ],
  de: [
    { key: 'standard', kind: 'delivery', title: 'Standard', carrier: 'DHL', amount: 495, minDays: 3, maxDays: 5 },
    { key: 'express', kind: 'delivery', title: 'Express', carrier: 'DHL Express', amount: 990, minDays: 1, maxDays: 2 },
    { key: 'pickup', kind: 'pickup', title: 'Pickup point', carrier: 'DHL', amount: 395, minDays: 2, maxDays: 4 },
  ],
  us: [
    { key: 'standard', kind: 'delivery', title: 'Standard', carrier: 'USPS', amount: 599, minDays: 3, maxDays: 5 },
    { key: 'express', kind: 'delivery', title: 'Express', carrier: 'UPS', amount: 1499, minDays: 1, maxDays: 2 },
    { key: 'pickup', kind: 'pickup', title: 'Pickup point', carrier: 'UPS', amount: 499, minDays: 2, maxDays: 4 },
  ],
};

/** Readable, stable ids: `ship_se_standard` for the demo, `ship_outlet_se_standard` for others. */
export function shippingRateId(siteHandle: string, market: MarketId, key: RateDef['key']): string {
  return siteHandle === 'demo' ? `ship_${market}_${key}` : `ship_${siteHandle}_${market}_${key}`;
}
