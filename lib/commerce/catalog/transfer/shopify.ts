import { Readable, pipeline } from 'node:stream';
import { parse } from 'csv-parse';
import sanitizeHtml from 'sanitize-html';
import type { CatalogProduct } from '@/lib/contract/catalog-document';
import { minorDigits, parseMinorUnits } from '../../money';
import { storedProducts } from './export';
import { storedOptionTexts } from './plan';
import type { ImportSource } from './import';
import { CatalogInputError, count, decodeCatalogText, importLimits, megabytes, unstorableText, type ImportLimits } from './input';
import type { CatalogIssue } from './validate';

/**
 * Shopify's product CSV: one row per variant and per image, the product's own columns on
 * its first row. It knows one price (the Site's default market) and one language (the
 * Site's default locale); whatever else the shop has for a product stays as it is.
 */

type Located<T> = T & { line: number };
type ShopifyVariant = Located<{ values: string[]; sku: string; quantity: string; policy: string; price: string; compareAt: string }>;
type ShopifyImage = Located<{ src: string; position: string; alt: string }>;
export type ShopifyProduct = Located<{
  handle: string;
  title: string;
  body: string;
  status: string;
  published: string;
  seoTitle: string;
  seoDescription: string;
  vendor: string;
  type: string;
  tags: string[];
  optionNames: string[];
  variants: ShopifyVariant[];
  images: ShopifyImage[];
}>;

/** A Shopify file as read: its products, the problems of its rows, and its header (for column letters). */
export type ShopifyFile = { products: ShopifyProduct[]; issues: CatalogIssue[]; columns: string[] };

const REQUIRED = ['Handle', 'Title', 'Variant SKU', 'Variant Price'];
/** The columns this catalog reads; every other one is named in the plan as ignored. */
const USED = new Set([
  'Handle',
  'Title',
  'Body (HTML)',
  'Vendor',
  'Type',
  'Tags',
  'Published',
  'Status',
  'SEO Title',
  'SEO Description',
  'Option1 Name',
  'Option1 Value',
  'Option2 Name',
  'Option2 Value',
  'Option3 Name',
  'Option3 Value',
  'Variant SKU',
  'Variant Inventory Qty',
  'Variant Inventory Policy',
  'Variant Price',
  'Variant Compare At Price',
  'Image Src',
  'Image Position',
  'Image Alt Text',
]);
const STATUSES = ['active', 'draft', 'archived'];

/** A spreadsheet's column letter: 0 → A, 25 → Z, 26 → AA. */
export function columnLetter(index: number): string {
  let n = index + 1;
  let out = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    out = String.fromCharCode(65 + r) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}
/** Shopify writes no image sizes; a new image gets this until the merchant sets it in a catalog document. */
export const DEFAULT_IMAGE_SIZE = 1000;

const LIMIT_HINT = 'split it, or run the command with a bigger heap: docs/catalog.md, "Limits"';

/**
 * Streams the file (bytes, which must be UTF-8) row by row; holds one small record per
 * product, never the whole text. A file beyond `limits` is refused where it goes past
 * them, and reading stops there.
 */
export async function readShopifyCsv(
  input: AsyncIterable<Uint8Array | string>,
  limits: ImportLimits = importLimits(),
): Promise<ShopifyFile> {
  const issues: CatalogIssue[] = [];
  const products = new Map<string, ShopifyProduct>();
  let headerChecked = false;
  let columns: string[] = [];
  let previousEnd = 1;
  let previousEmpty = 0;
  let rows = 0;
  // pipeline, not pipe: a refusal while decoding must end the parser's loop below, not leave it waiting
  const parser = parse({
    columns: true,
    bom: true,
    info: true,
    skip_empty_lines: true,
    trim: false,
    relax_quotes: false,
    max_record_size: limits.itemChars,
  });
  pipeline(Readable.from(decodeCatalogText(input, limits), { objectMode: false }), parser, () => {});
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: Record<string, string>;
      info: { lines: number; empty_lines: number };
    }>) {
      const line = previousEnd + 1 + (info.empty_lines - previousEmpty);
      previousEnd = info.lines;
      previousEmpty = info.empty_lines;
      if (++rows > limits.csvRows) {
        issues.push({ pointer: '', line, field: '(file)', expected: `at most ${count(limits.csvRows)} rows in one file (${LIMIT_HINT})` });
        break;
      }
      for (const [column, value] of Object.entries(record)) {
        const problem = unstorableText(value);
        if (problem) issues.push({ pointer: '', line, field: column, expected: problem });
      }
      if (!headerChecked) {
        headerChecked = true;
        columns = Object.keys(record);
        const missing = REQUIRED.filter((c) => !(c in record));
        if (missing.length > 0) {
          issues.push({
            pointer: '',
            line: 1,
            field: missing.join(', '),
            expected: `Shopify product CSV columns ${REQUIRED.join(', ')} in the header line`,
          });
          return { products: [], issues, columns };
        }
      }
      readRow(record, line, products, issues);
      if (products.size > limits.items) {
        issues.push({
          pointer: '',
          line,
          field: 'Handle',
          expected: `at most ${count(limits.items)} products in one file (${LIMIT_HINT})`,
        });
        break;
      }
    }
  } catch (error) {
    if (error instanceof CatalogInputError) issues.push(error.issue);
    else if ((error as { code?: unknown }).code === 'CSV_MAX_RECORD_SIZE') {
      issues.push({
        pointer: '',
        line: (error as { lines?: number }).lines,
        field: '(file)',
        expected: `a row of at most ${megabytes(limits.itemChars, 'characters')} (this one goes on past that)`,
      });
    } else {
      const at = (error as { lines?: number }).lines;
      issues.push({
        pointer: '',
        line: at,
        field: '(file)',
        expected: `well-formed CSV (${error instanceof Error ? error.message : String(error)})`,
      });
    }
  } finally {
    parser.destroy();
  }
  if (!headerChecked && issues.length === 0)
    issues.push({ pointer: '', line: 1, field: '(file)', expected: 'a header line and at least one product row' });
  const letters = new Map(columns.map((c, i) => [c, columnLetter(i)]));
  for (const issue of issues) if (issue.cell === undefined && letters.has(issue.field)) issue.cell = letters.get(issue.field);
  return { products: [...products.values()], issues, columns };
}

function readRow(r: Record<string, string>, line: number, products: Map<string, ShopifyProduct>, issues: CatalogIssue[]) {
  const get = (column: string) => (r[column] ?? '').trim();
  const handle = get('Handle');
  if (!handle) {
    issues.push({ pointer: '', line, field: 'Handle', expected: 'the product handle on every row' });
    return;
  }
  let product = products.get(handle);
  if (!product) {
    product = {
      line,
      handle,
      title: get('Title'),
      body: r['Body (HTML)'] ?? '',
      status: get('Status').toLowerCase(),
      published: get('Published').toLowerCase(),
      seoTitle: get('SEO Title'),
      seoDescription: get('SEO Description'),
      vendor: get('Vendor'),
      type: get('Type'),
      tags: readTags(get('Tags')),
      optionNames: [1, 2, 3].map((n) => get(`Option${n} Name`)).filter(Boolean),
      variants: [],
      images: [],
    };
    products.set(handle, product);
    // Shopify documents TRUE and FALSE; "yes" taken as either would be a guess
    if (product.published && product.published !== 'true' && product.published !== 'false') {
      issues.push({
        pointer: '',
        line,
        handle,
        field: 'Published',
        expected: `TRUE or FALSE, as Shopify writes it (got "${get('Published')}")`,
      });
    }
    if (product.status && !STATUSES.includes(product.status)) {
      issues.push({ pointer: '', line, handle, field: 'Status', expected: `active, draft or archived (got "${get('Status')}")` });
    }
  }
  const values = [1, 2, 3].map((n) => get(`Option${n} Value`)).slice(0, Math.max(product.optionNames.length, 1));
  const isVariant = get('Variant SKU') !== '' || get('Variant Price') !== '' || values.some(Boolean);
  if (isVariant) {
    const variant = {
      line,
      values: values.filter(Boolean),
      sku: get('Variant SKU'),
      quantity: get('Variant Inventory Qty'),
      policy: get('Variant Inventory Policy').toLowerCase(),
      price: get('Variant Price'),
      compareAt: get('Variant Compare At Price'),
    };
    if (!variant.sku)
      issues.push({
        pointer: '',
        line,
        handle,
        field: 'Variant SKU',
        expected: 'a SKU on every variant row (SKUs identify variants here)',
      });
    if (variant.quantity && !/^-?\d+$/.test(variant.quantity))
      issues.push({ pointer: '', line, handle, field: 'Variant Inventory Qty', expected: `a whole number (got "${variant.quantity}")` });
    if (variant.policy && variant.policy !== 'deny' && variant.policy !== 'continue')
      issues.push({ pointer: '', line, handle, field: 'Variant Inventory Policy', expected: `deny or continue (got "${variant.policy}")` });
    product.variants.push(variant);
  }
  const src = get('Image Src');
  if (src) {
    const position = get('Image Position');
    if (position && !/^\d+$/.test(position))
      issues.push({ pointer: '', line, handle, field: 'Image Position', expected: `a whole number (got "${position}")` });
    product.images.push({ line, src, position, alt: get('Image Alt Text') });
  }
}

const BLOCKS = ['p', 'div', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'section', 'article', 'header', 'footer', 'table', 'tr'];

/**
 * Shopify's Body (HTML) → the storefront's description: plain text in paragraphs (a blank
 * line between them), list items on lines of their own. Scripts, styles, embedded frames
 * and every attribute are dropped with their content by sanitize-html before anything is read.
 */
export function descriptionFromHtml(html: string): string {
  const clean = sanitizeHtml(html, {
    allowedTags: ['p', 'br', 'li'],
    allowedAttributes: {},
    transformTags: Object.fromEntries(BLOCKS.filter((t) => t !== 'p').map((t) => [t, 'p'])),
    nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'object', 'embed', 'svg', 'template'],
  });
  const text = clean
    .replace(/<br \/>/g, '\n')
    .replace(/<li>/g, '\n• ')
    .replace(/<\/li>/g, '\n')
    .replace(/<\/?p>/g, '\n\n')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
  return text
    .split(/\n{2,}/)
    .map((paragraph) =>
      paragraph
        .split('\n')
        .map((l) => l.replace(/[ \t\u00a0]+/g, ' ').trim())
        .filter(Boolean)
        .join('\n'),
    )
    .filter(Boolean)
    .join('\n\n');
}

/** Shopify's Tags cell: comma-separated, each trimmed, each once. */
function readTags(cell: string): string[] {
  return [
    ...new Set(
      cell
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean),
    ),
  ];
}

/** A status or Published value the reader refused is reported on its line already; here it reads as a draft. */
function status(p: ShopifyProduct): CatalogProduct['status'] {
  if (p.status === 'archived') return 'archived';
  if (p.status === 'draft') return 'draft';
  if (p.status === '' || p.status === 'active')
    return p.published === 'false' || (p.published !== '' && p.published !== 'true') ? 'draft' : 'published';
  return 'draft';
}

/**
 * A price as a spreadsheet writes it: `249,00` (Swedish, German) reads as `249.00` where the
 * comma can only be the decimal one: a single comma, no point, and no more digits after it
 * than the currency has decimals (`1,000` in SEK could be a thousand, so it stays refused).
 */
export function decimalPoint(value: string, currency: string): string {
  const match = /^(\d+),(\d+)$/.exec(value);
  if (!match || !currency || match[2]!.length > minorDigits(currency)) return value;
  return `${match[1]}.${match[2]}`;
}

/** The column of the Shopify file an issue's pointer into the mapped product comes from. */
function columnOf(pointer: string, product: ShopifyProduct | undefined): string | null {
  const [, , , part, a, b, c] = pointer.split('/');
  switch (part) {
    case 'handle':
      return 'Handle';
    case 'status':
      return 'Status';
    case 'vendor':
      return 'Vendor';
    case 'type':
      return 'Type';
    case 'tags':
      return 'Tags';
    case 'texts':
      return b === 'description' ? 'Body (HTML)' : b === 'seoTitle' ? 'SEO Title' : b === 'seoDescription' ? 'SEO Description' : 'Title';
    case 'options':
      return a === undefined ? 'Option1 Name' : `Option${Number(a) + 1} ${b === 'values' ? 'Value' : 'Name'}`;
    case 'variants':
      if (a === undefined || b === 'sku' || b === undefined) return 'Variant SKU';
      if (b === 'prices') return pointer.endsWith('/compareAt') ? 'Variant Compare At Price' : 'Variant Price';
      if (b === 'stock') return pointer.endsWith('/policy') ? 'Variant Inventory Policy' : 'Variant Inventory Qty';
      if (b === 'options' || b === 'title') {
        const n = c === undefined ? 0 : Math.max(0, (product?.optionNames ?? []).indexOf(c.replace(/~1/g, '/').replace(/~0/g, '~')));
        return `Option${n + 1} Value`;
      }
      return null;
    case 'images':
      return b === 'alt' || b === 'alts' ? 'Image Alt Text' : b === undefined || b === 'url' ? 'Image Src' : null;
    default:
      return null;
  }
}

/**
 * The products of a Shopify file, completed from the stored catalog: other locales' texts,
 * other markets' prices, SEO texts, stock thresholds, image sizes, bundles and featured
 * places are kept; a new variant gets the default market's price only (so it is not sold
 * in the other markets until priced there). `locale` is the file's language (the Site's
 * default locale unless said).
 */
export function shopifySource(file: ShopifyFile, options: { locale?: string } = {}): ImportSource {
  const lines = new Map<string, number>();
  file.products.forEach((p, i) => {
    lines.set(`/products/${i}`, p.line);
    p.variants.forEach((v, j) => lines.set(`/products/${i}/variants/${j}`, v.line));
    p.images.forEach((m, k) => lines.set(`/products/${i}/images/${k}`, m.line));
  });
  const lineOf = (pointer: string) => {
    const parts = pointer.split('/');
    for (let n = Math.min(parts.length, 5); n >= 3; n -= 1) {
      const line = lines.get(parts.slice(0, n).join('/'));
      if (line !== undefined) return line;
    }
    return undefined;
  };
  const letters = new Map(file.columns.map((c, i) => [c, columnLetter(i)]));
  let currency = '';

  /**
   * Issues in the spreadsheet's terms: the line, the column's own name and letter, never a
   * pointer into the document the rows became; one per cell, in the file's order.
   */
  const locate = (issues: CatalogIssue[]): CatalogIssue[] => {
    const out: CatalogIssue[] = [];
    const seen = new Set<string>();
    for (const issue of issues) {
      let located = issue;
      if (issue.pointer.startsWith('/products/')) {
        const index = Number(issue.pointer.split('/')[2]);
        const product = file.products[index];
        const column = columnOf(issue.pointer, product);
        const line = issue.line ?? lineOf(issue.pointer);
        let expected = issue.expected;
        if (column === 'Variant Price' || column === 'Variant Compare At Price') {
          const variant = product?.variants[Number(issue.pointer.split('/')[4])];
          const got = column === 'Variant Price' ? variant?.price : variant?.compareAt;
          if (/^a decimal string/.test(expected) || /decimals \(got/.test(expected)) {
            expected = `a ${currency || 'price'} amount such as 249.00 or 249,00, with at most ${currency ? minorDigits(currency) : 2} decimals (no sign, no thousands separator; got "${got ?? ''}")`;
          }
        }
        located = {
          pointer: '',
          line,
          handle: issue.handle ?? product?.handle,
          field: column ?? issue.field,
          expected,
          cell: column ? letters.get(column) : undefined,
        };
      }
      const key = `${located.line ?? ''}|${located.field}`;
      if (located.line !== undefined && seen.has(key)) continue;
      seen.add(key);
      out.push(located);
    }
    return out.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || file.columns.indexOf(a.field) - file.columns.indexOf(b.field));
  };

  return {
    kind: 'partial',
    lineOf,
    locate,
    complete: async (site, index, loadDetails) => {
      // only the stored products the file names, by handle or by one of its SKUs
      const handles = new Set(file.products.map((p) => p.handle));
      const skus = new Set(file.products.flatMap((p) => p.variants.map((v) => v.sku)));
      const ids = new Set([
        ...index.products.filter((p) => handles.has(p.handle)).map((p) => p.id),
        ...index.productVariants.filter((v) => skus.has(v.sku)).map((v) => v.productId),
      ]);
      const stored = await storedProducts(site, index, loadDetails, ids);
      const byHandle = new Map(stored.map((p) => [p.handle, p]));
      const bySku = new Map(stored.flatMap((p) => p.variants.map((v) => [v.sku, v] as const)));
      const market = site.defaultMarketId;
      currency = site.markets.find((m) => m.id === market)?.currency ?? '';
      const issues: CatalogIssue[] = [...file.issues];
      const locale = options.locale ?? site.defaultLocale;
      const localeList = [...site.locales].sort().join(', ');
      if (!site.locales.has(locale)) {
        issues.push({ pointer: '', field: '--locale', expected: `a locale of Site "${site.handle}": ${localeList} (got "${locale}")` });
      }
      const inDefault = locale === site.defaultLocale;
      let droppedCompareAt = 0;
      let newVariants = 0;

      const products = file.products.map((p, i) => {
        const existing = byHandle.get(p.handle);
        const defaultTitle =
          p.optionNames.length === 1 &&
          p.optionNames[0] === 'Title' &&
          p.variants.every((v) => v.values.length <= 1 && (v.values[0] ?? 'Default Title') === 'Default Title');
        const optionNames = defaultTitle ? [] : p.optionNames;
        const options = optionNames.map((name, n) => ({ name, values: [...new Set(p.variants.map((v) => v.values[n] ?? ''))] }));
        const texts = { ...(existing?.texts ?? {}) };
        if (!existing && !inDefault) {
          issues.push({
            pointer: `/products/${i}/texts`,
            line: p.line,
            handle: p.handle,
            field: 'Title',
            expected: `a product the shop has already: a new one needs its texts in the Site's default locale ${site.defaultLocale} first (import that language's file without --locale, then this one)`,
          });
        }
        const before = texts[locale];
        texts[locale] = {
          title: p.title || before?.title || '',
          description: descriptionFromHtml(p.body),
          seoTitle: p.seoTitle || before?.seoTitle || null,
          seoDescription: p.seoDescription || before?.seoDescription || null,
          options: before?.options,
        };
        // The file has no option texts: the shop's stay, as far as its options still exist.
        for (const [l, t] of Object.entries(texts)) {
          const { options: kept, ...rest } = t;
          const still = storedOptionTexts(kept, options);
          texts[l] = still ? { ...rest, options: still } : rest;
        }
        const storedImages = new Map((existing?.images ?? []).map((img) => [img.url, img]));
        const images = [...p.images]
          .sort(
            (a, b) => (Number(a.position) || Number.MAX_SAFE_INTEGER) - (Number(b.position) || Number.MAX_SAFE_INTEGER) || a.line - b.line,
          )
          .map((img) => {
            const known = storedImages.get(img.src);
            const size = { width: known?.width ?? DEFAULT_IMAGE_SIZE, height: known?.height ?? DEFAULT_IMAGE_SIZE };
            if (inDefault || !known) return { url: img.src, alt: img.alt, ...(known?.alts ? { alts: known.alts } : {}), ...size };
            // in another language the alt text is that locale's; the stored one stays for the rest
            const others = Object.fromEntries(Object.entries(known.alts ?? {}).filter(([l]) => l !== locale));
            const alts = img.alt && img.alt !== known.alt ? { ...others, [locale]: img.alt } : others;
            return { url: img.src, alt: known.alt, ...(Object.keys(alts).length > 0 ? { alts } : {}), ...size };
          });
        // the sort above reorders images: keep their lines findable by their new place
        images.forEach((img, k) => {
          const source = p.images.find((m) => m.src === img.url);
          if (source) lines.set(`/products/${i}/images/${k}`, source.line);
        });
        const variants = p.variants.map((v) => {
          const known = bySku.get(v.sku);
          if (!known) newVariants += 1;
          const amount = decimalPoint(v.price, currency);
          const compareAt = decimalPoint(v.compareAt, currency);
          const price = parseMinorUnits(amount, currency);
          const compare = compareAt ? parseMinorUnits(compareAt, currency) : null;
          const keepCompare = compare !== null && price !== null && compare > price;
          if (compareAt && compare !== null && !keepCompare) droppedCompareAt += 1;
          // a quantity the reader refused is reported on its line already
          const quantity = /^-?\d+$/.test(v.quantity) ? Math.max(0, Number(v.quantity)) : (known?.stock?.quantity ?? 0);
          return {
            sku: v.sku,
            title: defaultTitle || v.values.length === 0 ? 'Default' : v.values.join(' / '),
            options: Object.fromEntries(optionNames.map((name, n) => [name, v.values[n] ?? ''])),
            prices: {
              ...(known?.prices ?? {}),
              [market]: { amount, currency, compareAt: keepCompare || (compareAt && compare === null) ? compareAt : null },
            },
            stock: {
              quantity,
              policy:
                v.policy === 'continue'
                  ? ('continue' as const)
                  : v.policy === 'deny'
                    ? ('deny' as const)
                    : (known?.stock?.policy ?? 'deny'),
              lowStockThreshold: known?.stock?.lowStockThreshold ?? 5,
            },
          };
        });
        // a file without the column keeps the shop's
        const has = (column: string) => file.columns.includes(column);
        return {
          handle: p.handle,
          status: status(p),
          featuredPosition: existing?.featuredPosition ?? null,
          vendor: has('Vendor') ? p.vendor || null : (existing?.vendor ?? null),
          type: has('Type') ? p.type || null : (existing?.type ?? null),
          tags: has('Tags') ? p.tags : (existing?.tags ?? []),
          texts,
          images,
          options,
          variants,
          bundles: existing?.bundles ?? [],
        };
      });

      const otherMarkets = site.markets.filter((m) => m.id !== market).map((m) => m.id);
      const notes = [
        `Prices are for the default market ${market} (${currency}); the texts are written in ${locale}${inDefault ? " (the Site's default locale; --locale names another)" : ''}.`,
        otherMarkets.length > 0
          ? `Markets ${otherMarkets.join(', ')}: existing variants keep their prices there; ${newVariants} new variant(s) get none, so they are not sold there until priced.`
          : 'The Site has no other market.',
        "Other locales' texts, stock thresholds, bundles and featured places are kept as they are; new images get the size 1000×1000 (Shopify writes none).",
      ];
      if (droppedCompareAt > 0)
        notes.push(`${droppedCompareAt} compare-at price(s) not above the price were dropped (Shopify shows no sale for them either).`);
      const ignored = file.columns.filter((c) => !USED.has(c));
      if (ignored.length > 0) notes.push(`Columns ignored (no place in this catalog): ${ignored.join(', ')}.`);
      return { products, notes, issues };
    },
  };
}
