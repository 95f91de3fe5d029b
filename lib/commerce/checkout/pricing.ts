import { addedTax, includedTax } from '../money';

/** What pricing needs to know about a market. */
export type TaxRule = { taxInclusive: boolean; taxRateBp: number };
export type Totals = { subtotal: number; shipping: number | null; tax: number; total: number };

export const MAX_LINE_QUANTITY = 99;

export type RequestedLine = { variantId: string; quantity: number };
/** A line after duplicates are folded: `indexes` are the positions in the request body. */
export type MergedLine = RequestedLine & { indexes: number[] };

/** Folds lines of the same variant into one, in the order each variant first appears. */
export function mergeLines(lines: readonly RequestedLine[]): MergedLine[] {
  const byVariant = new Map<string, MergedLine>();
  lines.forEach((line, index) => {
    const seen = byVariant.get(line.variantId);
    if (seen) {
      seen.quantity += line.quantity;
      seen.indexes.push(index);
    } else {
      byVariant.set(line.variantId, { variantId: line.variantId, quantity: line.quantity, indexes: [index] });
    }
  });
  return [...byVariant.values()];
}

export type RequestedBundle = { bundleId: string; quantity: number };
/** A bundle after duplicates are folded: `indexes` are the positions in the request body. */
export type MergedBundle = RequestedBundle & { indexes: number[] };

/** Folds entries of the same bundle into one, in the order each bundle first appears. */
export function mergeBundles(entries: readonly RequestedBundle[]): MergedBundle[] {
  const byId = new Map<string, MergedBundle>();
  entries.forEach((entry, index) => {
    const seen = byId.get(entry.bundleId);
    if (seen) {
      seen.quantity += entry.quantity;
      seen.indexes.push(index);
    } else {
      byId.set(entry.bundleId, { bundleId: entry.bundleId, quantity: entry.quantity, indexes: [index] });
    }
  });
  return [...byId.values()];
}

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
