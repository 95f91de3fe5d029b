import { and, sql, type SQL } from 'drizzle-orm';
import { products } from '@/db/schema';
import type { DbOrTx } from '@/db/client';
import type { ProductSort } from '@/lib/contract/operations/reads';
import { DomainError } from '@/lib/platform/errors';
import { decodeCursor, encodeCursor } from '../cursor';
import type { MarketChoice } from '../markets';
import { isPublished } from '../published';

/**
 * Product search and sorted lists over the index of migration 0009 (scripts/search-triggers.mjs):
 * product_search_keys has one row per (product, locale) translation; its id is the rowid of
 * the same document in product_search_text (trigram: substrings of 3+ characters, so prefixes
 * and words inside compounds) and product_search_words (unicode61: whole words and 1–3
 * character prefixes; its vocabulary gives the candidates for a typo).
 */

/** At most this many words of a query count (a longer query is a paste, not a search). */
const MAX_WORDS = 8;
/** Words this long forgive one typo (as Meilisearch and Algolia do by default). */
const TYPO_MIN_LENGTH = 5;
const MAX_TYPO_CANDIDATES = 20;

/**
 * The words of a query: letters and digits only, lowercased. Everything else (quotes, `*`,
 * `-`, `:`, brackets) separates words, so no input reaches FTS5 as syntax; each word is then
 * quoted when the MATCH expression is built, which makes `NEAR`, `OR` and `AND` plain words too.
 */
export function queryWords(q: string): string[] {
  return q
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0)
    .slice(0, MAX_WORDS);
}

/** The form the index keeps a word in: diacritics removed (as `remove_diacritics` does). */
function folded(word: string): string {
  return word.normalize('NFD').replace(/\p{M}/gu, '');
}

/** Whether a and b are at most one edit apart (insert, delete, substitute, or swap neighbours). */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

/**
 * Indexed terms one edit from the word. Looked up among terms with the same first letter (a
 * range read on the vocabulary): a typo in the first letter is rare and would mean a scan.
 */
async function typoCandidates(database: DbOrTx, word: string): Promise<string[]> {
  const w = folded(word);
  const first = String.fromCodePoint(w.codePointAt(0)!);
  const next = String.fromCodePoint(w.codePointAt(0)! + 1);
  const rows = await database.all<{ term: string }>(
    sql`select term from product_search_vocab where term >= ${first} and term < ${next} and length(term) between ${w.length - 1} and ${w.length + 1}`,
  );
  return rows.map((r) => r.term).filter((t) => t !== w && withinOneEdit(w, t)).slice(0, MAX_TYPO_CANDIDATES);
}

/**
 * products.id and products.handle spelled out: drizzle writes a selected field's columns
 * unqualified, and inside these subqueries a bare "id" would be the inner table's.
 */
const productId = sql.raw('"products"."id"');
const productHandle = sql.raw('"products"."handle"');

const phrase = (word: string) => `"${word}"`;
const inText = (match: string) => sql`k.id in (select rowid from product_search_text where product_search_text match ${match})`;
const inWords = (match: string) => sql`k.id in (select rowid from product_search_words where product_search_words match ${match})`;

/**
 * How well one key (k) matches one word, lower is better: title before body, and within each
 * exact word before prefix or inner part before typo. Null when the word does not match.
 */
function wordTier(word: string, last: boolean, typos: string[]): SQL {
  const tiers: SQL[] = [];
  const q = phrase(word);
  const orTypos = typos.map(phrase).join(' OR ');
  tiers.push(inWords(`title : ${q}`));
  if (last) tiers.push(inWords(`title : ${q}*`));
  if (word.length >= 3) tiers.push(inText(`title : ${q}`));
  tiers.push(inWords(`body : ${q}`));
  if (last) tiers.push(inWords(`body : ${q}*`));
  if (word.length >= 3) tiers.push(inText(`body : ${q}`));
  if (typos.length > 0) {
    tiers.push(inWords(`title : (${orTypos})`));
    tiers.push(inWords(`body : (${orTypos})`));
  }
  return sql`(case ${sql.join(tiers.map((t, i) => sql`when ${t} then ${i}`), sql` `)} else null end)`;
}

/** The keys (product_search_keys.id) whose document matches the word at all. */
function wordMatches(word: string, last: boolean, typos: string[]): SQL {
  const q = phrase(word);
  const words = [last ? `${q}*` : q, ...typos.map(phrase)].join(' OR ');
  const inner = [sql`select rowid from product_search_words where product_search_words match ${words}`];
  if (word.length >= 3) inner.push(sql`select rowid from product_search_text where product_search_text match ${q}`);
  return sql.join(inner, sql` union `);
}

/**
 * The relevance of each product for the query in the locale (falling back to the Site's
 * default locale for products not translated), over its translation and its option/SKU
 * document (locale ''): per word the best tier in either, summed; null when some word
 * matches neither.
 */
async function relevance(database: DbOrTx, q: string, locale: string, defaultLocale: string): Promise<{ score: SQL; candidates: SQL } | null> {
  const words = queryWords(q);
  if (words.length === 0) return null;
  const typos = await Promise.all(words.map((w) => (w.length >= TYPO_MIN_LENGTH ? typoCandidates(database, w) : Promise.resolve([]))));
  const last = words.length - 1;
  const inLocale = sql`(k.locale = '' or k.locale = ${locale} or (k.locale = ${defaultLocale} and not exists (select 1 from product_search_keys k2 where k2.product_id = k.product_id and k2.locale = ${locale})))`;
  const perWord = words.map((w, i) => sql`(select min(${wordTier(w, i === last, typos[i]!)}) from product_search_keys k where k.product_id = ${productId} and ${inLocale})`);
  // Products with a document matching the first word: narrows what gets scored to the likely few.
  const candidates = sql`${products.id} in (select k.product_id from product_search_keys k where k.id in (${wordMatches(words[0]!, last === 0, typos[0]!)}))`;
  return { score: sql`(${sql.join(perWord, sql` + `)})`, candidates };
}

/** The conditions on products for a search (none match when the query has no words). */
export async function searchConditions(database: DbOrTx, q: string, locale: string, defaultLocale: string): Promise<SQL[]> {
  const search = await relevance(database, q, locale, defaultLocale);
  return search ? [search.candidates, sql`${search.score} is not null`] : [sql`0`];
}

export type SortedListRequest = { limit: number; cursor?: string; q?: string; sort?: ProductSort };
type Keyed = { row: typeof products.$inferSelect; score: number | null; price: number | null; title: string };
type Key = string | number | null;

/** Each order's key for a product, and how two keys compare (ties go by handle). */
function orderOf(sort: ProductSort, locale: string): { key: (r: Keyed) => Key; compare: (a: Key, b: Key) => number } {
  const num = (desc: boolean) => (a: Key, b: Key) => {
    // A product with no price in the market sorts last either way (it is not sold there anyway).
    if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
    return desc ? (b as number) - (a as number) : (a as number) - (b as number);
  };
  switch (sort) {
    case 'relevance':
      return { key: (r) => r.score, compare: num(false) };
    case 'price-asc':
      return { key: (r) => r.price, compare: num(false) };
    case 'price-desc':
      return { key: (r) => r.price, compare: num(true) };
    case 'newest':
      return { key: (r) => r.row.createdAt, compare: num(true) };
    case 'title-asc': {
      const collator = new Intl.Collator(locale, { sensitivity: 'base', numeric: true });
      return { key: (r) => r.title, compare: (a, b) => collator.compare(String(a), String(b)) };
    }
  }
}

const invalidCursor = () =>
  new DomainError('validation_failed', 'The cursor is not valid for this list.', {
    errors: [{ pointer: '#/query/cursor', code: 'invalid_cursor', detail: 'Use a nextCursor this list returned.' }],
  });

/** The cursor holds the last item's sort key and handle, so a page starts right after it. */
function readCursor(cursor: string | undefined, kind: string): [Key, string] | undefined {
  const raw = decodeCursor(cursor, kind, 'string');
  if (raw === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw invalidCursor();
  }
  if (!Array.isArray(parsed) || parsed.length !== 2 || typeof parsed[1] !== 'string') throw invalidCursor();
  const key: unknown = parsed[0];
  if (key !== null && typeof key !== 'string' && !(typeof key === 'number' && Number.isFinite(key))) throw invalidCursor();
  return [key as Key, parsed[1]];
}

/**
 * One page of published products sold in the market, searched and/or sorted. The matching
 * products and their keys are read in one query, ordered here (a locale's collation is not
 * SQLite's), and the page taken after the cursor's (key, handle).
 */
export async function sortedPageOfProducts(
  database: DbOrTx,
  site: { id: string; defaultLocale: string },
  choice: MarketChoice,
  request: SortedListRequest,
  base: SQL[],
): Promise<{ rows: (typeof products.$inferSelect)[]; page: { limit: number; nextCursor: string | null } }> {
  const sort: ProductSort = request.sort ?? 'relevance';
  const kind = `products:${sort}`;
  const after = readCursor(request.cursor, kind);
  const empty = { rows: [], page: { limit: request.limit, nextCursor: null } };
  const search = request.q === undefined ? null : await relevance(database, request.q, choice.locale, site.defaultLocale);
  if (request.q !== undefined && search === null) return empty;
  const title = sql<string>`coalesce(
    (select title from product_translations t where t.product_id = ${productId} and t.locale = ${choice.locale}),
    (select title from product_translations t where t.product_id = ${productId} and t.locale = ${site.defaultLocale}),
    ${productHandle})`;
  const price = sql<number | null>`(select min(vp.amount) from product_variants v inner join variant_prices vp on vp.variant_id = v.id
    where v.product_id = ${productId} and vp.market_id = ${choice.market.id})`;
  const rows = await database
    .select({ row: products, score: search ? search.score.mapWith(Number) : sql<null>`null`, price, title })
    .from(products)
    .where(and(isPublished(site.id), ...base, search?.candidates));
  const matching: Keyed[] = search ? rows.filter((r) => r.score !== null) : rows;
  // Without q, "relevance" has nothing to rank by: every product ties, so handle order.
  const order = orderOf(sort, choice.locale);
  const compare = (a: Key, ah: string, b: Key, bh: string) => order.compare(a, b) || (ah < bh ? -1 : ah > bh ? 1 : 0);
  const keyed = matching.map((r) => ({ r, key: order.key(r) }));
  keyed.sort((a, b) => compare(a.key, a.r.row.handle, b.key, b.r.row.handle));
  const start = after ? keyed.findIndex((x) => compare(x.key, x.r.row.handle, after[0], after[1]) > 0) : 0;
  if (start < 0) return empty;
  const slice = keyed.slice(start, start + request.limit);
  const more = start + request.limit < keyed.length;
  const last = slice.at(-1);
  return {
    rows: slice.map((x) => x.r.row),
    page: { limit: request.limit, nextCursor: more && last ? encodeCursor(kind, JSON.stringify([last.key, last.r.row.handle])) : null },
  };
}
