/**
 * Named colours used as option values and to paint the product illustrations.
 * A variant's Color value is a key here; the illustration file is `<kind>-<slug>.svg`.
 */
export const PALETTE = {
  White: '#F3EFE7',
  Cream: '#EFE2C6',
  Natural: '#D9C9A8',
  Sand: '#D6B98C',
  Oak: '#C2935E',
  Birch: '#E2C799',
  Brass: '#C9A24A',
  Ochre: '#D39A2C',
  Yellow: '#E9B92F',
  Terracotta: '#C4683F',
  Rust: '#AE4F2C',
  Red: '#A8362F',
  Sage: '#93A985',
  Green: '#3F7A4E',
  Forest: '#2E5A45',
  Mist: '#BFD0DA',
  Clear: '#CFE4EA',
  Blue: '#4677A8',
  Navy: '#263B5A',
  Midnight: '#1F2A44',
  Smoke: '#6F7D84',
  Grey: '#8A8E94',
  Charcoal: '#3A3D42',
  Black: '#262626',
  Aurora: '#2FA58C',
} as const;

export type ColorName = keyof typeof PALETTE;

export function isColorName(value: string): value is ColorName {
  return Object.prototype.hasOwnProperty.call(PALETTE, value);
}

/** Colour names in the three copy languages (for image alt text and descriptions). */
export const COLOR_WORDS: Record<ColorName, { en: string; sv: string; de: string }> = {
  White: { en: 'white', sv: 'vit', de: 'Weiß' },
  Cream: { en: 'cream', sv: 'gräddvit', de: 'Creme' },
  Natural: { en: 'natural', sv: 'natur', de: 'Natur' },
  Sand: { en: 'sand', sv: 'sand', de: 'Sand' },
  Oak: { en: 'oak', sv: 'ek', de: 'Eiche' },
  Birch: { en: 'birch', sv: 'björk', de: 'Birke' },
  Brass: { en: 'brass', sv: 'mässing', de: 'Messing' },
  Ochre: { en: 'ochre', sv: 'ockra', de: 'Ocker' },
  Yellow: { en: 'yellow', sv: 'gul', de: 'Gelb' },
  Terracotta: { en: 'terracotta', sv: 'terrakotta', de: 'Terrakotta' },
  Rust: { en: 'rust', sv: 'rost', de: 'Rost' },
  Red: { en: 'red', sv: 'röd', de: 'Rot' },
  Sage: { en: 'sage', sv: 'salvia', de: 'Salbei' },
  Green: { en: 'green', sv: 'grön', de: 'Grün' },
  Forest: { en: 'forest green', sv: 'skogsgrön', de: 'Waldgrün' },
  Mist: { en: 'mist blue', sv: 'dimblå', de: 'Nebelblau' },
  Clear: { en: 'clear', sv: 'klar', de: 'Klar' },
  Blue: { en: 'blue', sv: 'blå', de: 'Blau' },
  Navy: { en: 'navy', sv: 'marinblå', de: 'Marineblau' },
  Midnight: { en: 'midnight blue', sv: 'midnattsblå', de: 'Mitternachtsblau' },
  Smoke: { en: 'smoke grey', sv: 'rökgrå', de: 'Rauchgrau' },
  Grey: { en: 'grey', sv: 'grå', de: 'Grau' },
  Charcoal: { en: 'charcoal', sv: 'kolgrå', de: 'Anthrazit' },
  Black: { en: 'black', sv: 'svart', de: 'Schwarz' },
  Aurora: { en: 'aurora green', sv: 'norrskensgrön', de: 'Polarlichtgrün' },
};
