import type { ColorName } from './palette';
import type { Kind, Text3 } from './kinds';
import type { MarketPrices } from './pricing';

export type StockPolicy = 'deny' | 'preorder' | 'continue';
export type StockSpec = { quantity: number; policy?: StockPolicy };
export type OptionDef = { name: string; values: string[] };

/** One hand-written product. Variants are every combination of its option values. */
export type ProductDef = {
  handle: string;
  kind: Kind;
  title: Text3;
  /** Index into PRICE_TIERS for the first variant. */
  tier: number;
  options: OptionDef[];
  /** An option whose later values cost one tier more each (sizes, lengths). */
  priceBy?: string;
  /** The illustration colour when the product has no Color option. */
  imageColor?: ColorName;
  status?: 'draft' | 'archived';
  /** On sale: a compare-at price two tiers up. */
  sale?: boolean;
  featured?: number;
  /** Stock per variant title, overriding the generated levels; key '*' = every variant. */
  stock?: Record<string, StockSpec>;
};

export type CollectionDef = {
  handle: string;
  title: Text3;
  description: Text3;
  /** Product handles in the collection's stored (merchandised) order. */
  members: string[];
};

export type BundleDef = {
  productHandle: string;
  /** As written (English), and in the shop's other copy languages. */
  title: string;
  titles?: { sv: string; de: string };
  /** Items by product handle and variant title. */
  items: { product: string; variant: string; quantity: number }[];
  price: MarketPrices;
};

export const color = (...values: ColorName[]): OptionDef => ({ name: 'Color', values });
export const size = (...values: string[]): OptionDef => ({ name: 'Size', values });
export const option = (name: string, ...values: string[]): OptionDef => ({ name, values });
