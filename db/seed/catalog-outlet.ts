import type { CollectionDef, ProductDef } from './types';
import { color, size } from './types';

/**
 * The outlet: a second, smaller Site (market `se` only). Some handles also exist in
 * the demo shop, with other ids, prices and stock, so isolation tests mean something.
 */
export const OUTLET_PRODUCTS: ProductDef[] = [
  {
    handle: 'linen-tote-bag',
    kind: 'tote',
    tier: 1,
    options: [color('Natural', 'Black')],
    sale: true,
    featured: 1,
    title: { en: 'Linen Tote Bag (Seconds)', sv: 'Tygkasse i linne (2:a sortering)', de: 'Leinen-Tragetasche (2. Wahl)' },
    stock: { Natural: { quantity: 9 }, Black: { quantity: 15 } },
  },
  {
    handle: 'fjord-ceramic-mug',
    kind: 'mug',
    tier: 1,
    options: [color('Sand')],
    sale: true,
    featured: 2,
    title: { en: 'Fjord Ceramic Mug (Seconds)', sv: 'Fjord keramikmugg (2:a sortering)', de: 'Fjord Keramikbecher (2. Wahl)' },
    stock: { Sand: { quantity: 60 } },
  },
  {
    handle: 'stoneware-seconds-bowl',
    kind: 'bowl',
    tier: 3,
    options: [color('Sage', 'Midnight')],
    sale: true,
    featured: 3,
    title: { en: 'Stoneware Bowl (Seconds)', sv: 'Skål i stengods (2:a sortering)', de: 'Steinzeugschüssel (2. Wahl)' },
  },
  {
    handle: 'canvas-apron',
    kind: 'apron',
    tier: 3,
    options: [color('Black')],
    sale: true,
    title: { en: 'Canvas Apron, Last Season', sv: 'Förkläde i canvas, förra säsongen', de: 'Schürze aus Canvas, letzte Saison' },
  },
  {
    handle: 'sample-cushion-cover',
    kind: 'cushion',
    tier: 1,
    options: [color('Rust', 'Navy')],
    sale: true,
    featured: 4,
    title: { en: 'Sample Cushion Cover', sv: 'Provexemplar kuddfodral', de: 'Musterstück Kissenbezug' },
    stock: { Rust: { quantity: 2 }, Navy: { quantity: 0, policy: 'deny' } },
  },
  {
    handle: 'ragg-wool-socks-2-pack',
    kind: 'socks',
    tier: 2,
    options: [size('36–39', '40–43')],
    imageColor: 'Grey',
    sale: true,
    title: { en: 'Ragg Wool Socks, 2-Pack', sv: 'Raggsockor i ull, 2-pack', de: 'Ragg-Wollsocken, 2er-Pack' },
  },
  {
    handle: 'enamel-camping-mug',
    kind: 'camp-mug',
    tier: 0,
    options: [color('Blue')],
    sale: true,
    title: { en: 'Enamel Camping Mug', sv: 'Emaljmugg för camping', de: 'Emaille-Campingbecher' },
  },
  {
    handle: 'oak-serving-board',
    kind: 'board',
    tier: 3,
    options: [size('Large')],
    imageColor: 'Oak',
    sale: true,
    title: { en: 'Oak Serving Board', sv: 'Serveringsbräda i ek', de: 'Servierbrett aus Eiche' },
  },
];

const t = (en: string, sv: string, de: string) => ({ en, sv, de });

export const OUTLET_COLLECTIONS: CollectionDef[] = [
  {
    handle: 'last-chance',
    title: t('Last chance', 'Sista chansen', 'Letzte Chance'),
    description: t(
      'Seconds and samples at outlet prices, while they last.',
      'Andrasortering och provexemplar till outletpris, så länge lagret räcker.',
      'Zweite Wahl und Musterstücke zu Outletpreisen, solange der Vorrat reicht.',
    ),
    members: [
      'sample-cushion-cover',
      'fjord-ceramic-mug',
      'stoneware-seconds-bowl',
      'oak-serving-board',
      'linen-tote-bag',
      'enamel-camping-mug',
    ],
  },
  {
    handle: 'textiles',
    title: t('Textiles', 'Textil', 'Textilien'),
    description: t('Outlet linen, wool and canvas.', 'Linne, ull och canvas till outletpris.', 'Leinen, Wolle und Canvas zum Outletpreis.'),
    members: ['linen-tote-bag', 'ragg-wool-socks-2-pack', 'canvas-apron', 'sample-cushion-cover'],
  },
];
