import { DEMO_COLLECTIONS, DEMO_PRODUCTS } from './catalog-demo';
import { OUTLET_COLLECTIONS, OUTLET_PRODUCTS } from './catalog-outlet';
import type { Kind, Text3 } from './kinds';
import { COLOR_WORDS, isColorName, type ColorName } from './palette';
import { slugify } from './ids';
import type { ProductDef } from './types';

/**
 * Product illustrations are `public/products/<kind>-<colour>.svg` (800×800), collection
 * banners `public/collections/<handle>.svg` (1200×600). scripts/generate-images.ts draws
 * exactly the files listed here, and the seed references nothing else.
 */
export const PRODUCT_IMAGE_SIZE = 800;
export const COLLECTION_IMAGE = { width: 1200, height: 600 } as const;

export type ImageRef = { kind: Kind; color: ColorName; file: string; url: string };

export function productImage(kind: Kind, color: ColorName): ImageRef {
  const file = `${kind}-${slugify(color)}.svg`;
  return { kind, color, file, url: `/products/${file}` };
}

/** The colours a product is shown in: its colour-like option's values, else imageColor. */
export function productColors(def: ProductDef): ColorName[] {
  const colourOption = def.options.find((o) => o.values.length > 0 && o.values.every(isColorName));
  const colours = colourOption ? colourOption.values.filter(isColorName) : [def.imageColor ?? 'Sand'];
  return colours.slice(0, 3);
}

/** A product's images, each with its alt text in every language of the seed. */
export function productImages(def: ProductDef): { url: string; alt: Text3; width: number; height: number }[] {
  const colours = productColors(def);
  const named = def.options.some((o) => o.values.every(isColorName));
  return colours.map((colour) => ({
    url: productImage(def.kind, colour).url,
    alt: named
      ? {
          en: `${def.title.en} in ${COLOR_WORDS[colour].en}`,
          sv: `${def.title.sv} i ${COLOR_WORDS[colour].sv}`,
          de: `${def.title.de} in ${COLOR_WORDS[colour].de}`,
        }
      : def.title,
    width: PRODUCT_IMAGE_SIZE,
    height: PRODUCT_IMAGE_SIZE,
  }));
}

/** Every product illustration the hand-written catalogues use, once each. */
export function allProductImages(): ImageRef[] {
  const seen = new Map<string, ImageRef>();
  for (const def of [...DEMO_PRODUCTS, ...OUTLET_PRODUCTS]) {
    for (const colour of productColors(def)) {
      const ref = productImage(def.kind, colour);
      seen.set(ref.file, ref);
    }
  }
  return [...seen.values()].sort((a, b) => a.file.localeCompare(b.file));
}

/** Which colours exist for each kind: the benchmark catalogue reuses these files. */
export function colorsByKind(): Map<Kind, ColorName[]> {
  const out = new Map<Kind, ColorName[]>();
  for (const ref of allProductImages()) out.set(ref.kind, [...(out.get(ref.kind) ?? []), ref.color]);
  return out;
}

/** Each collection banner shows three products side by side. */
export const COLLECTION_SCENES: Record<string, [Kind, ColorName][]> = {
  'new-arrivals': [
    ['down-jacket', 'Navy'],
    ['dripper', 'White'],
    ['vase', 'Blue'],
  ],
  kitchen: [
    ['kettle', 'Black'],
    ['mug', 'Sand'],
    ['bowl', 'Sage'],
  ],
  'living-room': [
    ['vase', 'Sage'],
    ['cushion', 'Rust'],
    ['candle', 'Cream'],
  ],
  textiles: [
    ['tote', 'Natural'],
    ['throw', 'Ochre'],
    ['beanie', 'Rust'],
  ],
  outdoor: [
    ['backpack', 'Forest'],
    ['lantern', 'Black'],
    ['bottle', 'Sand'],
  ],
  lighting: [
    ['pendant', 'White'],
    ['lamp', 'Sage'],
    ['bulb', 'Brass'],
  ],
  'gift-ideas': [
    ['giftcard', 'Aurora'],
    ['candle', 'Cream'],
    ['socks', 'Red'],
  ],
  'last-chance': [
    ['bowl', 'Midnight'],
    ['apron', 'Black'],
    ['mug', 'Sand'],
  ],
};

/** A collection's banner; its alt text is the collection's title, in every language of the seed. */
export function collectionImage(handle: string, title: Text3): { url: string; alt: Text3; width: number; height: number } | null {
  if (!COLLECTION_SCENES[handle]) return null;
  return { url: `/collections/${handle}.svg`, alt: title, ...COLLECTION_IMAGE };
}

export function allCollectionHandles(): string[] {
  return [...new Set([...DEMO_COLLECTIONS, ...OUTLET_COLLECTIONS].map((c) => c.handle))];
}
