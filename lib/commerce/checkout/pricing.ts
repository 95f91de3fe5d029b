import { addedTax, includedTax } from '../money';

export {
  MAX_LINE_QUANTITY,
  mergeBundles,
  mergeLines,
  type MergedBundle,
  type MergedLine,
  type RequestedBundle,
  type RequestedLine,
} from '@/lib/contract/checkout-lines';

/** What pricing needs to know about a market. */
export type TaxRule = { taxInclusive: boolean; taxRateBp: number };
export type Totals = { subtotal: number; shipping: number | null; tax: number; total: number };

export function lineTotal(unitPrice: number, quantity: number): number {
  const total = unitPrice * quantity;
  if (!Number.isSafeInteger(total) || !Number.isSafeInteger(unitPrice)) throw new Error('line total out of range');
  return total;
}

/**
 * Totals in integer minor units. Tax is charged on goods and shipping alike:
 * - tax-inclusive markets (SE, DE): prices already contain tax; `tax` is the part of
 *   subtotal + shipping that is tax, and total = subtotal + shipping;
 * - tax-exclusive markets (US): tax is added on top, total = subtotal + shipping + tax.
 * Rounding (half up) happens once, on the sum, so lines never drift apart from the total.
 */
export function computeTotals(lineTotals: readonly number[], shipping: number | null, rule: TaxRule): Totals {
  const subtotal = lineTotals.reduce((sum, t) => sum + t, 0);
  const taxable = subtotal + (shipping ?? 0);
  if (!Number.isSafeInteger(taxable)) throw new Error('totals out of range');
  if (rule.taxInclusive) {
    return { subtotal, shipping, tax: includedTax(taxable, rule.taxRateBp), total: taxable };
  }
  const tax = addedTax(taxable, rule.taxRateBp);
  return { subtotal, shipping, tax, total: taxable + tax };
}
