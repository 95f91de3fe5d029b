import { minorDigits } from '@/lib/commerce/money';

let currencies: Set<string> | undefined;

/** ISO 4217 codes the platform knows; a well-formed but made-up code (`XYZ`) is not money. */
export function isKnownCurrency(code: string): boolean {
  currencies ??= new Set(Intl.supportedValuesOf('currency'));
  return currencies.has(code);
}

/**
 * A caller's decimal string → integer minor units, by string arithmetic only (never a
 * float): `"199.5"` SEK → 19950, `"1990"` JPY → 1990. Null for a negative amount, more
 * decimals than the currency has, an unknown currency, or more than a safe integer.
 */
export function parseMinorUnits(amount: string, currency: string): number | null {
  const match = /^(\d{1,15})(?:\.(\d{1,4}))?$/.exec(amount);
  if (!match || !isKnownCurrency(currency)) return null;
  const digits = minorDigits(currency);
  const fraction = match[2] ?? '';
  if (fraction.length > digits) return null;
  const minor = BigInt(match[1]! + fraction.padEnd(digits, '0'));
  return minor <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(minor) : null;
}
