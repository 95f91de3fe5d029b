/**
 * Retail price points per market, in integer minor units (öre, cent). Each tier is
 * set by hand as a shop would, never converted at run time, and never a float.
 */
export type MarketPrices = { se: number; de: number; us: number };

export const PRICE_TIERS: readonly MarketPrices[] = [
  { se: 4900, de: 495, us: 549 },
  { se: 7900, de: 795, us: 899 },
  { se: 9900, de: 995, us: 1099 },
  { se: 14900, de: 1490, us: 1599 },
  { se: 19900, de: 1990, us: 2199 },
  { se: 24900, de: 2490, us: 2699 },
  { se: 29900, de: 2990, us: 3299 },
  { se: 34900, de: 3490, us: 3799 },
  { se: 39900, de: 3990, us: 4399 },
  { se: 49900, de: 4990, us: 5499 },
  { se: 59900, de: 5990, us: 6499 },
  { se: 69900, de: 6990, us: 7499 },
  { se: 79900, de: 7990, us: 8999 },
  { se: 99900, de: 9990, us: 10999 },
  { se: 129900, de: 12990, us: 13999 },
  { se: 149900, de: 14990, us: 16999 },
  { se: 199900, de: 19990, us: 21999 },
  { se: 249900, de: 24990, us: 27999 },
  { se: 299900, de: 29990, us: 32999 },
];

export function tier(index: number): MarketPrices {
  const clamped = Math.max(0, Math.min(PRICE_TIERS.length - 1, index));
  const prices = PRICE_TIERS[clamped];
  if (!prices) throw new Error(`No price tier ${index}`);
  return prices;
}

/** A sale shows the price two tiers up as the compare-at price. */
export const SALE_TIER_STEP = 2;
