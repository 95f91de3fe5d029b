import { DEMO_PRODUCTS } from './catalog-demo';
import { colorsByKind } from './images';
import { KINDS, KIND_NAMES, type Category, type Kind } from './kinds';
import { prng, randInt, slugify } from './ids';
import type { ProductDef } from './types';
import { color, size } from './types';

/**
 * The benchmark catalogue (`--products N`): N more published products built from word
 * lists, ~3 variants each, reusing the committed illustrations, spread over the demo's
 * collections (which then get many members).
 */
const NAMES = [
  'Alva',
  'Ask',
  'Berg',
  'Björk',
  'Dal',
  'Dimma',
  'Ek',
  'Eld',
  'Fjäril',
  'Fors',
  'Gran',
  'Hav',
  'Hed',
  'Idun',
  'Is',
  'Kust',
  'Lind',
  'Ljung',
  'Lo',
  'Mo',
  'Myr',
  'Norr',
  'Ö',
  'Rönn',
  'Saga',
  'Sjö',
  'Skär',
  'Snö',
  'Sol',
  'Stig',
  'Sund',
  'Tall',
  'Tuva',
  'Udd',
  'Vide',
  'Vik',
  'Vind',
  'Vår',
  'Älv',
  'Äng',
];

const COLLECTION_FOR: Record<Category, string> = {
  kitchen: 'kitchen',
  living: 'living-room',
  textiles: 'textiles',
  outdoor: 'outdoor',
  lighting: 'lighting',
  gift: 'gift-ideas',
};

export type BenchCatalog = { products: ProductDef[]; members: Map<string, string[]> };

export function benchProducts(count: number): BenchCatalog {
  const kinds = KIND_NAMES.filter((k) => k !== 'giftcard');
  const colours = colorsByKind();
  const baseTier = new Map<Kind, number>();
  for (const def of DEMO_PRODUCTS) if (!baseTier.has(def.kind)) baseTier.set(def.kind, def.tier);

  const products: ProductDef[] = [];
  const members = new Map<string, string[]>();
  const join = (collection: string, handle: string) => {
    const list = members.get(collection);
    if (list) list.push(handle);
    else members.set(collection, [handle]);
  };

  for (let i = 0; i < count; i += 1) {
    const kind = kinds[i % kinds.length] as Kind;
    const name = NAMES[Math.floor(i / kinds.length) % NAMES.length] ?? 'Nord';
    const info = KINDS[kind];
    const next = prng(`bench:${i}`);
    const available = colours.get(kind) ?? [];
    const start = i % Math.max(1, available.length);
    const rotated = [...available.slice(start), ...available.slice(0, start)];
    const options =
      rotated.length >= 3
        ? [color(...rotated.slice(0, 3))]
        : rotated.length === 2
          ? [color(...rotated), size('S', 'L')]
          : [size('S', 'M', 'L')];
    const handle = `${slugify(name)}-${slugify(info.noun.en)}-${i + 1}`;
    products.push({
      handle,
      kind,
      options,
      title: { en: `${name} ${info.noun.en}`, sv: `${name} ${info.noun.sv}`, de: `${name} ${info.noun.de}` },
      tier: Math.max(0, (baseTier.get(kind) ?? 5) + randInt(next, -1, 1)),
      priceBy: options.some((o) => o.name === 'Size') ? 'Size' : undefined,
      imageColor: rotated[0] ?? 'Sand',
      sale: i % 9 === 4,
    });
    join(COLLECTION_FOR[info.category], handle);
    if (i % 10 === 3) join('new-arrivals', handle);
  }
  return { products, members };
}
