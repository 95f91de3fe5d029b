/** Cart lines as a request names them, and how duplicates fold: rules the request schema checks and the domain prices. */
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
