import { COLOR_WORDS, isColorName } from './palette';
import type { OptionDef } from './types';

/**
 * Swedish and German texts of the seed's option names and values. The products store them in
 * English; English locales show the stored text. Values that read the same in every language
 * (sizes such as "M", "250 g", "50×50 cm") have no entry.
 */
const NAMES: Record<string, { sv: string; de: string }> = {
  Color: { sv: 'Färg', de: 'Farbe' },
  Size: { sv: 'Storlek', de: 'Größe' },
  Scent: { sv: 'Doft', de: 'Duft' },
  Length: { sv: 'Längd', de: 'Länge' },
  Shape: { sv: 'Form', de: 'Form' },
  Design: { sv: 'Motiv', de: 'Motiv' },
};

const VALUES: Record<string, Record<string, { sv: string; de: string }>> = {
  Size: { Small: { sv: 'Liten', de: 'Klein' }, Large: { sv: 'Stor', de: 'Groß' } },
  Scent: { Birch: { sv: 'Björk', de: 'Birke' }, 'Sea Salt': { sv: 'Havssalt', de: 'Meersalz' }, Cedar: { sv: 'Ceder', de: 'Zeder' } },
  Shape: { Globe: { sv: 'Glob', de: 'Kugel' }, Pear: { sv: 'Päron', de: 'Birne' } },
  Design: { Aurora: { sv: 'Norrsken', de: 'Polarlicht' }, Forest: { sv: 'Skog', de: 'Wald' } },
};

const capitalise = (word: string) => word.charAt(0).toLocaleUpperCase('sv') + word.slice(1);

function valueText(option: string, value: string, lang: 'sv' | 'de'): string | undefined {
  if (option === 'Color' && isColorName(value)) return capitalise(COLOR_WORDS[value][lang]);
  return VALUES[option]?.[value]?.[lang];
}

/** A product's option texts in a copy language, as product_translations.options stores them (null for English). */
export function optionTexts(options: OptionDef[], lang: 'en' | 'sv' | 'de') {
  if (lang === 'en' || options.length === 0) return null;
  return Object.fromEntries(
    options.map((o) => {
      const values = Object.fromEntries(
        o.values.flatMap((v) => {
          const text = valueText(o.name, v, lang);
          return text === undefined ? [] : [[v, text]];
        }),
      );
      const name = NAMES[o.name]?.[lang];
      return [o.name, { ...(name === undefined ? {} : { name }), ...(Object.keys(values).length > 0 ? { values } : {}) }];
    }),
  );
}
