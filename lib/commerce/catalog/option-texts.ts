import { sql, type SQL } from 'drizzle-orm';

/**
 * Option names and values in a locale. Products and variants store their options in one
 * (canonical) spelling; product_translations.options gives a locale's text keyed by it. The
 * translation row used is the one the title comes from (the locale's, else the Site's default
 * locale's); a name or value that row does not translate shows the stored text.
 *
 * Everything a shopper reads and sends back is the displayed text: product and variant
 * options, variant titles built from values, facets and `option=Name:Value` filters. Ids
 * (variants, carts) stay the same in every locale.
 */
export type OptionTexts = Record<string, { name?: string; values?: Record<string, string> }>;
export type ProductOptions = { name: string; values: string[] }[];

export function optionName(texts: OptionTexts | null | undefined, name: string): string {
  return texts?.[name]?.name ?? name;
}

export function optionValue(texts: OptionTexts | null | undefined, name: string, value: string): string {
  return texts?.[name]?.values?.[value] ?? value;
}

/** A product's options as the locale shows them, in stored order. */
export function displayedOptions(options: ProductOptions, texts: OptionTexts | null | undefined): ProductOptions {
  if (!texts) return options;
  return options.map((o) => ({ name: optionName(texts, o.name), values: o.values.map((v) => optionValue(texts, o.name, v)) }));
}

/** A variant's `{ name: value }` as the locale shows them. */
export function displayedVariantOptions(options: Record<string, string>, texts: OptionTexts | null | undefined): Record<string, string> {
  if (!texts) return options;
  return Object.fromEntries(Object.entries(options).map(([name, value]) => [optionName(texts, name), optionValue(texts, name, value)]));
}

/** The separator the seed and the Shopify import build variant titles with ("White / S"). */
const TITLE_SEPARATOR = ' / ';

/**
 * A variant title in the locale. A title that is the variant's values joined in option order
 * ("White / S") is built again from the displayed values ("Vit / S"); a title of its own
 * ("Default", "Gift box") is the merchant's text and shown as stored.
 */
export function displayedVariantTitle(
  title: string,
  variantOptions: Record<string, string>,
  options: ProductOptions,
  texts: OptionTexts | null | undefined,
): string {
  if (!texts || options.length === 0) return title;
  const values = options.map((o) => variantOptions[o.name] ?? '');
  if (values.join(TITLE_SEPARATOR) !== title) return title;
  return options.map((o, i) => optionValue(texts, o.name, values[i]!)).join(TITLE_SEPARATOR);
}

/**
 * SQL: the option texts a product shows in `locale` (the row titles come from: the locale's,
 * else `fallback`'s; null when neither has any). `productId` is the product id column.
 */
export function chosenOptionTexts(productId: SQL, locale: string, fallback: string): SQL {
  return sql`(select t.options from product_translations t where t.product_id = ${productId} and t.locale in (${locale}, ${fallback})
    order by t.locale = ${locale} desc limit 1)`;
}

/** SQL: the displayed name of stored option `name` under `texts` (see chosenOptionTexts). */
export function displayedNameSql(texts: SQL, name: SQL): SQL {
  return sql`coalesce((select json_extract(n.value, '$.name') from json_each(${texts}) n where n.key = ${name}), ${name})`;
}

/** SQL: the displayed value of stored `value` of option `name` under `texts`. */
export function displayedValueSql(texts: SQL, name: SQL, value: SQL): SQL {
  return sql`coalesce((select x.value from json_each(${texts}) n, json_each(n.value, '$.values') x where n.key = ${name} and x.key = ${value}), ${value})`;
}

/** A bundle's title in `locale`: its own there (bundles.titles), else the title as written. */
export function bundleTitle(title: string, titles: Record<string, string> | null, locale: string): string {
  return titles?.[locale] ?? title;
}
