import type { Money } from '@/lib/contract/common';

const digitsCache = new Map<string, number>();

/** Minor-unit digits of an ISO 4217 currency (SEK 2, JPY 0), from the platform's ICU data. */
export function minorDigits(currency: string): number {
  let digits = digitsCache.get(currency);
  if (digits === undefined) {
    digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    digitsCache.set(currency, digits);
  }
  return digits;
}

/**
 * A caller's decimal string → integer minor units, by string arithmetic only (never a
 * float): "199.5" SEK → 19950, "1990" JPY → 1990. Null for anything but a plain non-negative
 * decimal, more decimals than the currency has, or more than a safe integer. Every amount a
 * caller sends is read here (price filters, catalog imports, analytics values), so the same
 * text means the same amount everywhere.
 */
export function parseMinorUnits(amount: string, currency: string): number | null {
  const match = /^(\d{1,15})(?:\.(\d{1,4}))?$/.exec(amount);
  if (!match) return null;
  const digits = minorDigits(currency);
  const fraction = match[2] ?? '';
  if (fraction.length > digits) return null;
  const minor = BigInt(match[1]! + fraction.padEnd(digits, '0'));
  return minor <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(minor) : null;
}

/** Integer minor units → `{ amount: "199.00", currency }` with integer arithmetic only. */
export function toMoney(minor: number, currency: string): Money {
  if (!Number.isSafeInteger(minor)) throw new Error(`money must be a safe integer, got ${minor}`);
  const digits = minorDigits(currency);
  const negative = minor < 0;
  const text = String(Math.abs(minor)).padStart(digits + 1, '0');
  const amount = digits === 0 ? text : `${text.slice(0, -digits)}.${text.slice(-digits)}`;
  return { amount: negative ? `-${amount}` : amount, currency };
}

/** The tax contained in a tax-inclusive amount at `rateBp` basis points, rounded half up. */
export function includedTax(grossMinor: number, rateBp: number): number {
  if (rateBp <= 0) return 0;
  // gross * rate / (10000 + rate), in integers
  return Math.floor((grossMinor * rateBp * 2 + (10_000 + rateBp)) / (2 * (10_000 + rateBp)));
}

/** Tax added on top of a tax-exclusive amount, rounded half up. */
export function addedTax(netMinor: number, rateBp: number): number {
  if (rateBp <= 0) return 0;
  return Math.floor((netMinor * rateBp * 2 + 10_000) / 20_000);
}
