import type { z } from 'zod';
import type { CatalogCollection, CatalogMarket, CatalogProduct, OptionTexts } from '@/lib/contract/catalog-document';
import { minorDigits, parseMinorUnits } from '../../money';
import type { CatalogIndex, TransferSite } from './state';

/** One thing wrong with an input file: where (JSON pointer, or CSV line), which item, which field, what was expected. */
export type CatalogIssue = {
  pointer: string;
  /** The line (1-based) in the file, when known. */
  line?: number;
  /** The character in that line (1-based), when known. */
  column?: number;
  handle?: string;
  /** For a spreadsheet: the letter of the column `field` names (`U` for Variant Price). */
  cell?: string;
  field: string;
  expected: string;
};

const escape = (part: string | number) => String(part).replace(/~/g, '~0').replace(/\//g, '~1');
export const pointerOf = (path: readonly PropertyKey[]) => path.map((p) => `/${escape(typeof p === 'symbol' ? String(p) : p)}`).join('');

/**
 * A zod error as issues, each naming the handle of the product or collection it is in.
 * `root` is what was parsed: the item itself when `base` points at it (`['products', 3]`).
 */
export function issuesFromZod(error: z.ZodError, root: unknown, base: (string | number)[] = []): CatalogIssue[] {
  return error.issues.map((issue) => {
    const path = [...base, ...issue.path] as (string | number)[];
    const item = base.length >= 2 ? root : dig(root, issue.path.slice(0, typeof issue.path[0] === 'number' ? 1 : 2) as (string | number)[]);
    const handle = item && typeof item === 'object' ? (item as { handle?: unknown }).handle : undefined;
    return {
      pointer: pointerOf(path),
      handle: typeof handle === 'string' ? handle : undefined,
      field: fieldName(path),
      expected: issue.message,
    };
  });
}

function dig(root: unknown, path: (string | number)[]): unknown {
  let node = root;
  for (const part of path) node = node && typeof node === 'object' ? (node as Record<string | number, unknown>)[part] : undefined;
  return node;
}

/** The last named part of a path, with its list index: `variants[2].sku`. */
function fieldName(path: (string | number)[]): string {
  const named = path.filter((p) => typeof p === 'string');
  const last = named.at(-1);
  return last === undefined ? '(document)' : String(last);
}

/**
 * A locale's option texts name only the product's options and their values, and keep them
 * apart: two options (or two values of one) shown alike could not be told apart, nor filtered.
 */
function optionTextIssues(
  texts: OptionTexts,
  options: { name: string; values: string[] }[],
  pointer: string,
  handle: string,
): CatalogIssue[] {
  const issues: CatalogIssue[] = [];
  const names = options.map((o) => o.name);
  const shownNames = new Map<string, string>();
  for (const o of options) {
    const name = texts[o.name]?.name ?? o.name;
    const other = shownNames.get(name);
    if (other !== undefined)
      issues.push({
        pointer: `${pointer}/${escape(o.name)}/name`,
        handle,
        field: 'name',
        expected: `a name no other option shows ("${other}" is also "${name}")`,
      });
    shownNames.set(name, o.name);
  }
  for (const [name, text] of Object.entries(texts)) {
    const option = options.find((o) => o.name === name);
    if (!option) {
      issues.push({
        pointer: `${pointer}/${escape(name)}`,
        handle,
        field: 'options',
        expected: `the name of one of the product's options: ${names.join(', ') || '(none)'} (got "${name}")`,
      });
      continue;
    }
    for (const value of Object.keys(text.values ?? {})) {
      if (!option.values.includes(value)) {
        issues.push({
          pointer: `${pointer}/${escape(name)}/values/${escape(value)}`,
          handle,
          field: name,
          expected: `a value of option ${name}: ${option.values.join(', ')} (got "${value}")`,
        });
      }
    }
    const shown = new Map<string, string>();
    for (const value of option.values) {
      const label = text.values?.[value] ?? value;
      const other = shown.get(label);
      if (other !== undefined)
        issues.push({
          pointer: `${pointer}/${escape(name)}/values/${escape(value)}`,
          handle,
          field: name,
          expected: `a text no other value of ${name} shows ("${other}" is also "${label}")`,
        });
      shown.set(label, value);
    }
  }
  return issues;
}

/** Market names are for the Site's own markets, in locales it offers. */
export function validateMarketNames(site: TransferSite, marketsIn: CatalogMarket[]): CatalogIssue[] {
  const issues: CatalogIssue[] = [];
  const known = new Set(site.markets.map((m) => m.id));
  const localeList = [...site.locales].sort().join(', ');
  marketsIn.forEach((m, i) => {
    if (!m.names || Object.keys(m.names).length === 0) return;
    if (!known.has(m.id)) {
      issues.push({
        pointer: `/markets/${i}/names`,
        field: 'names',
        expected: `names only for a market of Site "${site.handle}": ${[...known].join(', ')} (got "${m.id}")`,
      });
      return;
    }
    for (const locale of Object.keys(m.names)) {
      if (!site.locales.has(locale))
        issues.push({
          pointer: `/markets/${i}/names/${escape(locale)}`,
          field: 'names',
          expected: `a locale of Site "${site.handle}": ${localeList}`,
        });
    }
  });
  return issues;
}

/**
 * What the schema cannot know: the target Site's markets, currencies and locales, and
 * uniqueness and references across the whole file and the shop.
 */
export function validateAgainstSite(
  site: TransferSite,
  state: CatalogIndex,
  productsIn: CatalogProduct[],
  collectionsIn: CatalogCollection[] | null,
  base: { products: string; collections: string } = { products: '/products', collections: '/collections' },
): CatalogIssue[] {
  const issues: CatalogIssue[] = [];
  const currency = new Map(site.markets.map((m) => [m.id, m.currency]));
  const marketList = site.markets.map((m) => `${m.id} (${m.currency})`).join(', ');
  const localeList = [...site.locales].sort().join(', ');
  const fileHandles = new Map<string, number>();
  const fileSkus = new Map<string, string>();
  const stateHandle = new Map(state.products.map((p) => [p.id, p.handle]));
  const shopSkuOwner = new Map(state.productVariants.map((v) => [v.sku, stateHandle.get(v.productId) ?? '']));

  const checkLocales = (texts: Record<string, unknown>, pointer: string, handle: string) => {
    for (const locale of Object.keys(texts)) {
      if (!site.locales.has(locale))
        issues.push({
          pointer: `${pointer}/${escape(locale)}`,
          handle,
          field: 'texts',
          expected: `a locale of Site "${site.handle}": ${localeList}`,
        });
    }
    if (!(site.defaultLocale in texts))
      issues.push({ pointer, handle, field: 'texts', expected: `texts in the Site's default locale ${site.defaultLocale}` });
  };
  /** Texts keyed by locale besides the main one (a bundle's titles, an image's alts): the Site's locales only. */
  const checkOtherLocales = (byLocale: Record<string, string> | undefined, pointer: string, handle: string, field: string) => {
    for (const locale of Object.keys(byLocale ?? {})) {
      if (!site.locales.has(locale))
        issues.push({
          pointer: `${pointer}/${escape(locale)}`,
          handle,
          field,
          expected: `a locale of Site "${site.handle}": ${localeList}`,
        });
    }
  };
  const checkPrice = (
    price: { amount: string; currency: string; compareAt?: string | null },
    market: string,
    pointer: string,
    handle: string,
  ) => {
    const code = currency.get(market);
    if (!code) {
      issues.push({ pointer, handle, field: 'prices', expected: `a market of Site "${site.handle}": ${marketList}` });
      return;
    }
    if (price.currency !== code)
      issues.push({
        pointer: `${pointer}/currency`,
        handle,
        field: 'currency',
        expected: `${code}, the currency of market ${market} (got ${price.currency})`,
      });
    const amount = parseMinorUnits(price.amount, code);
    if (amount === null)
      issues.push({
        pointer: `${pointer}/amount`,
        handle,
        field: 'amount',
        expected: `a ${code} amount with at most ${minorDigits(code)} decimals (got "${price.amount}")`,
      });
    if (price.compareAt !== undefined && price.compareAt !== null) {
      const compareAt = parseMinorUnits(price.compareAt, code);
      if (compareAt === null)
        issues.push({
          pointer: `${pointer}/compareAt`,
          handle,
          field: 'compareAt',
          expected: `a ${code} amount with at most ${minorDigits(code)} decimals (got "${price.compareAt}")`,
        });
      // Equal is allowed and shows no sale (the API hides a compare-at price not above the price).
      else if (amount !== null && compareAt < amount)
        issues.push({
          pointer: `${pointer}/compareAt`,
          handle,
          field: 'compareAt',
          expected: `a compare-at price not below the price ${price.amount} (got ${price.compareAt})`,
        });
    }
  };

  productsIn.forEach((p, i) => {
    const at = `${base.products}/${i}`;
    const first = fileHandles.get(p.handle);
    if (first !== undefined)
      issues.push({
        pointer: `${at}/handle`,
        handle: p.handle,
        field: 'handle',
        expected: `a handle used once in the file (also at ${base.products}/${first})`,
      });
    else fileHandles.set(p.handle, i);
    checkLocales(p.texts, `${at}/texts`, p.handle);
    for (const [locale, texts] of Object.entries(p.texts)) {
      if (texts.options) issues.push(...optionTextIssues(texts.options, p.options, `${at}/texts/${escape(locale)}/options`, p.handle));
    }
    p.images.forEach((image, k) => checkOtherLocales(image.alts, `${at}/images/${k}/alts`, p.handle, 'alts'));

    const optionNames = p.options.map((o) => o.name);
    if (new Set(optionNames).size !== optionNames.length)
      issues.push({ pointer: `${at}/options`, handle: p.handle, field: 'options', expected: 'option names used once per product' });
    const combos = new Set<string>();
    p.variants.forEach((v, j) => {
      const vat = `${at}/variants/${j}`;
      const owner = fileSkus.get(v.sku);
      if (owner !== undefined)
        issues.push({
          pointer: `${vat}/sku`,
          handle: p.handle,
          field: 'sku',
          expected: `a SKU used once in the Site (also on "${owner}" in the file)`,
        });
      else fileSkus.set(v.sku, p.handle);
      const keys = Object.keys(v.options);
      if (keys.length !== optionNames.length || optionNames.some((n) => !(n in v.options))) {
        issues.push({
          pointer: `${vat}/options`,
          handle: p.handle,
          field: 'options',
          expected: `exactly the product's options: ${optionNames.join(', ') || '(none)'}`,
        });
      } else {
        p.options.forEach((o) => {
          if (!o.values.includes(v.options[o.name]!))
            issues.push({
              pointer: `${vat}/options/${escape(o.name)}`,
              handle: p.handle,
              field: o.name,
              expected: `one of ${o.values.join(', ')}`,
            });
        });
        const combo = JSON.stringify(optionNames.map((n) => v.options[n]));
        if (combos.has(combo))
          issues.push({
            pointer: `${vat}/options`,
            handle: p.handle,
            field: 'options',
            expected: 'a combination of option values no other variant of the product has',
          });
        combos.add(combo);
      }
      for (const [market, price] of Object.entries(v.prices)) checkPrice(price, market, `${vat}/prices/${escape(market)}`, p.handle);
    });
  });

  // SKUs of products the file does not name stay in the shop: a file SKU may not collide with them.
  productsIn.forEach((p, i) =>
    p.variants.forEach((v, j) => {
      const shopOwner = shopSkuOwner.get(v.sku);
      if (shopOwner !== undefined && shopOwner !== p.handle && !fileHandles.has(shopOwner)) {
        issues.push({
          pointer: `${base.products}/${i}/variants/${j}/sku`,
          handle: p.handle,
          field: 'sku',
          expected: `a SKU used once in the Site (product "${shopOwner}", not in the file, has it)`,
        });
      }
    }),
  );

  const knownSku = (sku: string) => fileSkus.has(sku) || (shopSkuOwner.has(sku) && !fileHandles.has(shopSkuOwner.get(sku)!));
  productsIn.forEach((p, i) =>
    p.bundles.forEach((b, j) => {
      const bat = `${base.products}/${i}/bundles/${j}`;
      checkOtherLocales(b.titles, `${bat}/titles`, p.handle, 'titles');
      b.items.forEach((item, k) => {
        if (!knownSku(item.sku))
          issues.push({
            pointer: `${bat}/items/${k}/sku`,
            handle: p.handle,
            field: 'sku',
            expected: `the SKU of a variant in the file or the shop (got "${item.sku}")`,
          });
      });
      for (const [market, price] of Object.entries(b.prices)) checkPrice(price, market, `${bat}/prices/${escape(market)}`, p.handle);
    }),
  );

  if (collectionsIn) {
    const shopHandles = new Set(state.products.map((p) => p.handle));
    const seen = new Map<string, number>();
    collectionsIn.forEach((c, i) => {
      const at = `${base.collections}/${i}`;
      const first = seen.get(c.handle);
      if (first !== undefined)
        issues.push({
          pointer: `${at}/handle`,
          handle: c.handle,
          field: 'handle',
          expected: `a collection handle used once in the file (also at ${base.collections}/${first})`,
        });
      else seen.set(c.handle, i);
      checkLocales(c.texts, `${at}/texts`, c.handle);
      if (c.image) checkOtherLocales(c.image.alts, `${at}/image/alts`, c.handle, 'alts');
      if (c.rules && c.products.length > 0) {
        issues.push({
          pointer: `${at}/products`,
          handle: c.handle,
          field: 'products',
          expected: 'no products for a collection with rules: its members are the products its rules match',
        });
      }
      const members = new Set<string>();
      c.products.forEach((member, k) => {
        if (!fileHandles.has(member) && !shopHandles.has(member))
          issues.push({
            pointer: `${at}/products/${k}`,
            handle: c.handle,
            field: 'products',
            expected: `the handle of a product in the file or the shop (got "${member}")`,
          });
        if (members.has(member))
          issues.push({
            pointer: `${at}/products/${k}`,
            handle: c.handle,
            field: 'products',
            expected: `each product once per collection ("${member}" is listed twice)`,
          });
        members.add(member);
      });
    });
  }
  return issues;
}
