import type { Money } from '@/lib/contract/common';

/**
 * Formats an API money value for display. The decimal string goes to Intl as a string
 * (exact, no float rounding); formatting happens on the server only, so the browser
 * never re-formats and server and client HTML always agree.
 */
export function formatMoney(money: Money, locale: string): string {
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency: money.currency }).format(money.amount as `${number}`);
  } catch {
    return `${money.amount} ${money.currency}`;
  }
}

export function formatCountry(code: string, locale: string): string {
  try {
    return new Intl.DisplayNames([locale], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

export function formatLanguage(locale: string, displayIn: string): string {
  try {
    return new Intl.DisplayNames([displayIn], { type: 'language' }).of(locale.split('-')[0] ?? locale) ?? locale;
  } catch {
    return locale;
  }
}
