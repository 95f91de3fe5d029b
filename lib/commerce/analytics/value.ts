import { parseMinorUnits } from '@/lib/commerce/money';

let currencies: Set<string> | undefined;

/** ISO 4217 codes the platform knows; a well-formed but made-up code (`XYZ`) is not money. */
export function isKnownCurrency(code: string): boolean {
  currencies ??= new Set(Intl.supportedValuesOf('currency'));
  return currencies.has(code);
}

/**
 * An event's value → integer minor units: null for an unknown currency, or for an amount
 * the currency cannot hold (lib/commerce/money.ts).
 */
export function valueMinorUnits(amount: string, currency: string): number | null {
  return isKnownCurrency(currency) ? parseMinorUnits(amount, currency) : null;
}
