import type { Money } from '@/lib/contract/common';

/**
 * Formats an API money value for display. The decimal string goes to Intl as a string
 * (exact, no float rounding); formatting happens on the server only, so the browser
 * never re-formats and server and client HTML always agree.
 */
export function formatMoney(money: Money, locale: string): string {
  try {
    return formatter(
      `m|${locale}|${money.currency}`,
      () => new Intl.NumberFormat(locale, { style: 'currency', currency: money.currency }),
    ).format(money.amount as `${number}`);
  } catch {
    return `${money.amount} ${money.currency}`;
  }
}

export function formatCountry(code: string, locale: string): string {
  try {
    return formatter(`r|${locale}`, () => new Intl.DisplayNames([locale], { type: 'region' })).of(code) ?? code;
  } catch {
    return code;
  }
}

export function formatLanguage(locale: string, displayIn: string): string {
  try {
    return (
      formatter(`l|${displayIn}`, () => new Intl.DisplayNames([displayIn], { type: 'language' })).of(locale.split('-')[0] ?? locale) ??
      locale
    );
  } catch {
    return locale;
  }
}

/**
 * Intl formatters by locale and currency, made once: making one loads its locale's data
 * (~2% of a product page's render, where every price and every language in the switcher
 * made its own). The keys are the Site's few locales and currencies; an unknown one throws
 * before anything is kept. Bounded all the same, oldest out first.
 */
const formatters = new Map<string, Intl.NumberFormat | Intl.DisplayNames>();
const MAX_FORMATTERS = 256;

function formatter<F extends Intl.NumberFormat | Intl.DisplayNames>(key: string, make: () => F): F {
  let known = formatters.get(key) as F | undefined;
  if (!known) {
    known = make();
    if (formatters.size >= MAX_FORMATTERS) formatters.delete(formatters.keys().next().value!);
    formatters.set(key, known);
  }
  return known;
}

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/**
 * The sum of prices × quantities, as the API writes money (a decimal string in the currency's
 * minor-unit precision). Added in integer minor units, never in floating point. Null when
 * there is nothing to add, or the prices are not all in one currency and precision.
 */
export function sumMoney(items: { price: Money; quantity: number }[]): Money | null {
  const first = items[0];
  if (!first) return null;
  const places = DECIMAL.exec(first.price.amount)?.[3]?.length ?? 0;
  let minor = 0n;
  for (const { price, quantity } of items) {
    const parts = DECIMAL.exec(price.amount);
    if (!parts || price.currency !== first.price.currency || (parts[3]?.length ?? 0) !== places) return null;
    const units = BigInt(`${parts[2]}${parts[3] ?? ''}`);
    minor += (parts[1] ? -units : units) * BigInt(quantity);
  }
  const sign = minor < 0n ? '-' : '';
  const digits = (minor < 0n ? -minor : minor).toString().padStart(places + 1, '0');
  const amount = places ? `${digits.slice(0, -places)}.${digits.slice(-places)}` : digits;
  return { amount: `${sign}${amount}`, currency: first.price.currency };
}
