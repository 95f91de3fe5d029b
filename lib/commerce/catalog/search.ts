import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { ProductSort } from '@/lib/contract/operations/reads';
import { DomainError } from '@/lib/platform/errors';
import { decodeCursor, encodeCursor } from '../cursor';
import type { MarketChoice } from '../markets';
import { baseDatabase, type DbOrTx } from '@/db/client';
import { cacheable, searchMatchCache, versionKey } from '@/lib/platform/cache/memo';
import { languageOf, Vocabulary } from './stemming';
import { orderOf, passes, sortKey, titleCollator, type IndexFilter, type ListIndex } from './list-index';

/**
 * Product search and sorted lists over the index of migration 0010 (scripts/search-triggers.mjs):
 * per product one document per locale of its Site (title, description) and one in slot 0
 * (option values, SKUs), rowid `seq * 256 + slot` (seq numbers the product in
 * product_search_ids, slot the locale in product_search_locales), in two FTS5 tables:
 * product_search_text (trigram: substrings of 3+ characters of the option values and SKUs)
 * and product_search_words (unicode61:
 * whole words and 1–2 character prefixes of the title and of the body; its vocabulary gives
 * each query word's forms, the compounds it is a part of, and its typos: stemming.ts).
 *
 * Relevance: each word of the query has a tier per product (lower is better: title before
 * body, and within each exact word or form before prefix or compound part before typo; then
 * the Site's other languages' titles) and a product's score is the sum. A page in relevance
 * order is found level by level (score 0, 1, 2, …), each word's tiers read from the index only
 * as far as the level needs, so a broad query (`q=m`) reads its few title tiers for the first
 * page, not every document that has an m-word. See docs/performance.md ("Search").
 */

/** At most this many words of a query count (a longer query is a paste, not a search). */
const MAX_WORDS = 8;
/** Words this long forgive one typo (as Meilisearch and Algolia do by default). */
const TYPO_MIN_LENGTH = 4;
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

/** The Site's catalog as of the request, which keys the search memos. */
type SearchSite = { id: string; catalogVersion: number };

/** What a search reads besides the index itself: the index's words, and the locales with documents (by slot). */
type Lexicon = { key: string; vocabulary: Vocabulary; locales: { slot: number; locale: string }[] };

const lexicons = new WeakMap<object, Lexicon>();
const loadingLexicons = new WeakMap<object, { key: string; promise: Promise<Lexicon> }>();

/**
 * The index's vocabulary, kept per database until the index changes. It is keyed by the
 * words index's structure record (FTS5's list of segments, rowid 10 of its data table), which
 * every write to the index changes and nothing else does: a change of stock or price moves
 * the catalog version but not the vocabulary, and reading every word of FTS5's vocabulary
 * table walks every document list (~100 ms of CPU at 10,000 products), so it is read once per
 * change of the texts. Inside a transaction the vocabulary is read fresh and not kept: it
 * may hold the transaction's own words.
 */
async function lexiconOf(database: DbOrTx): Promise<Lexicon> {
  const [structure] = await database.all<{ key: string | null }>(
    sql`select hex(block) as key from product_search_words_data where id = 10`,
  );
  const key = structure?.key ?? '';
  const read = async (): Promise<Lexicon> => {
    const terms = (await database.all<{ term: string }>(sql`select term from product_search_vocab`)).map((r) => r.term);
    const locales = await database.all<{ slot: number; locale: string }>(
      sql`select slot, locale from product_search_locales where slot > 0 order by slot`,
    );
    return { key, vocabulary: new Vocabulary(terms), locales };
  };
  // Without a structure record (never seen; a later FTS5 could move it) nothing tells a change, so nothing is kept.
  if (!cacheable(database) || key === '') return read();
  const owner = baseDatabase(database);
  const kept = lexicons.get(owner);
  if (kept?.key === key) return kept;
  const loading = loadingLexicons.get(owner);
  if (loading?.key === key) return loading.promise;
  const promise = read().then((lexicon) => {
    lexicons.set(owner, lexicon);
    return lexicon;
  });
  loadingLexicons.set(owner, { key, promise });
  try {
    return await promise;
  } finally {
    if (loadingLexicons.get(owner)?.promise === promise) loadingLexicons.delete(owner);
  }
}

/**
 * Indexed words one edit from the word, among those with the same first letter (a typo in the
 * first letter is rare, and would mean every word).
 */
function typoCandidates(vocabulary: Vocabulary, word: string): string[] {
  const w = folded(word);
  const first = String.fromCodePoint(w.codePointAt(0)!);
  return vocabulary
    .withPrefix(first)
    .filter((t) => t !== w && t.length >= TYPO_MIN_LENGTH - 1 && Math.abs(t.length - w.length) <= 1 && withinOneEdit(w, t))
    .slice(0, MAX_TYPO_CANDIDATES);
}

const phrase = (word: string) => `"${word}"`;
const anyOf = (words: string[]) => words.map(phrase).join(' OR ');
/** Which documents an index query reads: the shopper's locale (and slot 0), or the Site's other languages. */
type Scope = 'own' | 'others';
type IndexQuery = { table: 'product_search_text' | 'product_search_words'; match: string; scope: Scope };
const inText = (match: string): IndexQuery => ({ table: 'product_search_text', match, scope: 'own' });
const inWords = (match: string, scope: Scope = 'own'): IndexQuery => ({ table: 'product_search_words', match, scope });
const inOthers = (match: string) => inWords(match, 'others');

/** One word of a query and the indexed words it stands for, in the shopper's language or in the others. */
type SearchWord = { word: string; forms: string[]; parts: string[]; typos: string[] };
type OtherWord = { word: string; forms: string[]; parts: string[] };

/**
 * The index queries of one word's tiers, by tier (an empty list: the tier does not apply to the
 * word): exact word or form, prefix, compound part — in the title, then in the body — then a
 * typo. The option values and SKUs (slot 0) keep the trigram's inner parts (a code's middle, a
 * colour inside "Midnattsblå"). Every tier once in the shopper's locale, then once more in the
 * Site's other languages, below all of the first (see docs/catalog.md).
 */
function wordTiers(search: Search, i: number): IndexQuery[][] {
  const last = i === search.words.length - 1;
  const own = search.own[i]!;
  const q = phrase(own.word);
  const exact = anyOf([own.word, ...own.forms]);
  const tiers: IndexQuery[][] = [
    [inWords(`title : (${exact})`)],
    last ? [inWords(`title : ${q}*`)] : [],
    own.parts.length > 0 ? [inWords(`title : (${anyOf(own.parts)})`)] : [],
    [inWords(`body : (${exact})`)],
    last ? [inWords(`body : ${q}*`)] : [],
    [...(own.parts.length > 0 ? [inWords(`body : (${anyOf(own.parts)})`)] : []), ...(own.word.length >= 3 ? [inText(`extra : ${q}`)] : [])],
    own.typos.length > 0 ? [inWords(`title : (${anyOf(own.typos)})`)] : [],
    own.typos.length > 0 ? [inWords(`body : (${anyOf(own.typos)})`)] : [],
  ];
  const other = search.others[i];
  if (other) {
    // Another language's word as written or inflected, or a part of its compounds, in titles:
    // what a product is called. Not in descriptions, whose common words ("is", "die", "set")
    // match most documents of a language the shopper did not choose, nor as prefixes or typos,
    // which there find mostly noise.
    const otherExact = anyOf([other.word, ...other.forms]);
    tiers.push([inOthers(`title : (${otherExact})`)], other.parts.length > 0 ? [inOthers(`title : (${anyOf(other.parts)})`)] : []);
  }
  return tiers;
}

/**
 * The products (seq) whose document matches the index query: in the locale or slot 0 (own),
 * or in a locale of another language (others: the slots given; another Site's locales hold
 * none of this Site's products). Each product once: a word shared by every language (a name)
 * would otherwise come back once per document.
 */
const inIndex = (query: IndexQuery, search: Search) => sql`select distinct rowid >> 8 as seq from ${sql.raw(query.table)}
  where ${sql.raw(query.table)} match ${query.match} and (rowid & 255) in ${
    query.scope === 'own'
      ? sql`(0, (select slot from product_search_locales where locale = ${search.locale}))`
      : sql`(${sql.join(
          search.otherSlots.map((slot) => sql`${slot}`),
          sql`, `,
        )})`
  }`;

/**
 * The products (seq) an index query matches, kept per catalog version and locale: a search
 * asked again with other filters or another page reads nothing from the index.
 */
async function matching(database: DbOrTx, site: SearchSite, query: IndexQuery, search: Search): Promise<number[]> {
  const read = async () => (await database.all<{ seq: number }>(inIndex(query, search))).map((r) => r.seq);
  if (!cacheable(database)) return read();
  return (await searchMatchCache.through(
    `${versionKey(database, site)}|${search.locale}|${query.scope}|${query.table}|${query.match}`,
    read,
  )) as number[];
}

/** From this level on, a word's remaining tiers are read at once (a query that gets this deep has few matches in titles). */
const READ_ALL_FROM = 3;
/** A word's tiers in the shopper's own language; the other languages' follow. */
const OWN_TIERS = 8;

/** One word of a query, its tiers read from the index as levels need them. */
class WordTiers {
  /** Each product (seq) found so far, with its best tier. */
  readonly best = new Map<number, number>();
  private read = -1;

  constructor(
    private readonly queries: IndexQuery[][],
    private readonly search: Search,
  ) {}

  get tiers(): number {
    return this.queries.length;
  }

  get complete(): boolean {
    return this.read >= this.queries.length - 1;
  }

  async upTo(database: DbOrTx, site: SearchSite, level: number): Promise<void> {
    // The shopper's own tiers at once from READ_ALL_FROM on; the other languages' only as the
    // levels reach them (a page full from the shopper's language never reads them).
    const top = this.queries.length - 1;
    const until = level >= READ_ALL_FROM ? Math.max(Math.min(level, top), Math.min(OWN_TIERS - 1, top)) : Math.min(level, top);
    for (let t = this.read + 1; t <= until; t += 1)
      for (const query of this.queries[t]!)
        for (const seq of await matching(database, site, query, this.search)) if (!(this.best.get(seq)! <= t)) this.best.set(seq, t);
    this.read = Math.max(this.read, until);
  }
}

/** A query's words, each with what it stands for in the shopper's language and (when the Site has others) in the others. */
type Search = { locale: string; words: string[]; own: SearchWord[]; others: (OtherWord | null)[]; otherSlots: number[] };

async function parseSearch(database: DbOrTx, q: string, locale: string): Promise<Search | null> {
  const words = queryWords(q);
  if (words.length === 0) return null;
  const { vocabulary, locales } = await lexiconOf(database);
  const language = languageOf(locale);
  // The Site's other languages: a locale of the shopper's language in another market (en-DE
  // for en-SE) holds the same words, already searched.
  const otherLocales = locales.filter((l) => languageOf(l.locale) !== language);
  const otherLanguages = [...new Set(otherLocales.map((l) => languageOf(l.locale)))];
  const own: SearchWord[] = [];
  const others: (OtherWord | null)[] = [];
  for (const word of words) {
    const w = folded(word);
    const typos = w.length >= TYPO_MIN_LENGTH ? typoCandidates(vocabulary, w) : [];
    own.push({ word, ...vocabulary.expand(w, language), typos });
    if (otherLocales.length === 0) {
      others.push(null);
      continue;
    }
    // In the other languages: the word's forms and parts by each of their stemmers.
    const forms = new Set<string>();
    const parts = new Set<string>();
    for (const other of otherLanguages) {
      const e = vocabulary.expand(w, other);
      for (const f of e.forms) forms.add(f);
      for (const p of e.parts) parts.add(p);
    }
    others.push({ word, forms: [...forms], parts: [...parts] });
  }
  return { locale, words, own, others, otherSlots: otherLocales.map((l) => l.slot) };
}

/** Every product (seq) whose document in the locale, or in another language, matches every word, in any tier. */
async function matchingAll(database: DbOrTx, site: SearchSite, search: Search): Promise<number[]> {
  let found: Set<number> | null = null;
  const last = search.words.length - 1;
  for (const [i, word] of search.words.entries()) {
    const q = phrase(word);
    const queries: IndexQuery[] = [];
    const own = search.own[i]!;
    const other = search.others[i];
    queries.push(inWords([i === last ? `${q}*` : q, ...[...own.forms, ...own.parts, ...own.typos].map(phrase)].join(' OR ')));
    if (other) queries.push(inOthers(`title : (${anyOf([other.word, ...other.forms, ...other.parts])})`));
    if (word.length >= 3) queries.push(inText(`extra : ${q}`));
    const mine = new Set<number>();
    for (const query of queries)
      for (const seq of await matching(database, site, query, search)) if (!found || found.has(seq)) mine.add(seq);
    found = mine;
    if (found.size === 0) break;
  }
  return [...(found ?? [])];
}

/** The products (seq) a search matches in the locale (none when the query has no words). */
export async function searchMatches(database: DbOrTx, site: SearchSite, q: string, locale: string): Promise<number[]> {
  const read = async () => {
    const search = await parseSearch(database, q, locale);
    return search ? matchingAll(database, site, search) : [];
  };
  if (!cacheable(database)) return read();
  return (await searchMatchCache.through(`${versionKey(database, site)}|${locale}|${queryWords(q).join(' ')}`, read)) as number[];
}

export type SortedListRequest = { limit: number; cursor?: string; q?: string; sort?: ProductSort };
type Key = string | number | null;

/** How two keys of an order compare (ties go by handle, after this). */
function compareKeys(sort: ProductSort, locale: string): (a: Key, b: Key) => number {
  const num = (desc: boolean) => (a: Key, b: Key) => {
    // A product with no price in the market sorts last either way (it is not sold there anyway).
    if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
    return desc ? (b as number) - (a as number) : (a as number) - (b as number);
  };
  switch (sort) {
    case 'relevance':
    case 'price-asc':
      return num(false);
    case 'price-desc':
    case 'newest':
      return num(true);
    case 'title-asc': {
      const collator = titleCollator(locale);
      return (a, b) => collator.compare(String(a), String(b));
    }
  }
}

const invalidCursor = () =>
  new DomainError('validation_failed', 'The cursor is not valid for this list.', {
    errors: [{ pointer: '#/query/cursor', code: 'invalid_cursor', detail: 'Use a nextCursor this list returned.' }],
  });

/**
 * The list a cursor belongs to. A sort key means something only in its context: a price in
 * the market's currency, a title in the locale's language, a score for the words searched.
 * So the kind names that context too, and a cursor from another market, language or search
 * is refused (422) instead of starting a page that silently skips products.
 */
function cursorKind(sort: ProductSort, choice: MarketChoice, q: string | undefined): string {
  switch (sort) {
    case 'price-asc':
    case 'price-desc':
      return `products:${sort}:${choice.market.id}`;
    case 'title-asc':
      return `products:${sort}:${choice.locale}`;
    case 'relevance':
      // By the words searched: 'mug', 'MUG' and ' mug ' are one search with one order.
      return q === undefined
        ? `products:${sort}`
        : `products:${sort}:${choice.locale}:${createHash('sha256').update(queryWords(q).join(' ')).digest('base64url').slice(0, 12)}`;
    default:
      return `products:${sort}`;
  }
}

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

/** A page as positions in the list index. */
type PageOfPositions = { positions: number[]; page: { limit: number; nextCursor: string | null } };

/** The list a sorted page is taken from: the index, and the products in it the request keeps. */
export type IndexedList = { index: ListIndex; filter: IndexFilter };

/**
 * One page of published products sold in the market, searched and/or sorted. A search in
 * relevance order is paged level by level (`relevantPage`); the other orders walk the index's
 * order of the sort (made once per index, carried over its merges: a locale's collation is
 * not SQLite's) from the cursor's (key, handle), keeping the products the filters pass, until
 * the page is full.
 * `matches` are the search's products (seq), which the caller gives when it has them.
 */
export async function sortedPageOfProducts(
  database: DbOrTx,
  site: SearchSite & { defaultLocale: string },
  choice: MarketChoice,
  request: SortedListRequest,
  list: IndexedList,
  matches?: number[],
): Promise<PageOfPositions> {
  const sort: ProductSort = request.sort ?? 'relevance';
  const kind = cursorKind(sort, choice, request.q);
  const after = readCursor(request.cursor, kind);
  const empty = { positions: [], page: { limit: request.limit, nextCursor: null } };
  const search = request.q === undefined ? null : await parseSearch(database, request.q, choice.locale);
  if (request.q !== undefined && search === null) return empty;
  const { index } = list;
  if (search && sort === 'relevance') {
    if (after && typeof after[0] !== 'number') throw invalidCursor();
    return relevantPage(database, site, search, request.limit, kind, list, after as [number, string] | undefined);
  }
  let filter = list.filter;
  if (search)
    filter = {
      ...filter,
      scope: withinMatches(index, filter.scope, matches ?? (await searchMatches(database, site, request.q!, choice.locale))),
    };
  // Without q, "relevance" has nothing to rank by: every product ties, so handle order.
  const order = orderOf(index, sort);
  const compareKey = compareKeys(sort, choice.locale);
  const compare = (p: number, key: Key, handle: string) => {
    const h = index.handles[p]!;
    return compareKey(sortKey(index, sort, p), key) || (h < handle ? -1 : h > handle ? 1 : 0);
  };
  // The first position after the cursor's (key, handle): the order is sorted by the same comparison.
  let lo = 0;
  if (after) {
    let hi = order.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compare(order[mid]!, after[0], after[1]) > 0) hi = mid;
      else lo = mid + 1;
    }
  }
  const positions: number[] = [];
  let more = false;
  for (let i = lo; i < order.length; i++) {
    const p = order[i]!;
    if (!passes(index, filter, p)) continue;
    if (positions.length === request.limit) {
      more = true;
      break;
    }
    positions.push(p);
  }
  const last = positions.at(-1);
  return {
    positions,
    page: {
      limit: request.limit,
      nextCursor:
        more && last !== undefined ? encodeCursor(kind, JSON.stringify([sortKey(index, sort, last), index.handles[last]!])) : null,
    },
  };
}

/** The scope narrowed to a search's products (seq). */
export function withinMatches(index: ListIndex, scope: Uint8Array | null, seqs: number[]): Uint8Array {
  const mine = new Uint8Array(index.size);
  for (const seq of seqs) {
    const p = index.bySeq.get(seq);
    if (p !== undefined && (scope === null || scope[p] === 1)) mine[p] = 1;
  }
  return mine;
}

/** Whether any product could still score `level` or more (every word's tiers read). */
function remains(words: WordTiers[], smallest: WordTiers, level: number): boolean {
  for (const seq of smallest.best.keys()) {
    let score = 0;
    for (const word of words) score += word.best.get(seq) ?? Infinity;
    if (score !== Infinity && score > level) return true;
  }
  return false;
}

/**
 * A page in relevance order, after the cursor's (score, handle). Levels are visited in order
 * of score; at each, every word's tiers up to that score are read (a product at level s has no
 * word in a tier above s), the products whose tiers sum to s are the level, and they are taken
 * in handle order (the list index's own order) through the list's filters, in memory, until
 * the page (and one more, to know there is a next page) is full. So a filter that passes few
 * products costs one read of each tier, not a read of the index per slice of products.
 */
async function relevantPage(
  database: DbOrTx,
  site: SearchSite,
  search: Search,
  limit: number,
  kind: string,
  list: IndexedList,
  after: [number, string] | undefined,
): Promise<PageOfPositions> {
  const { index, filter } = list;
  const found: { position: number; score: number }[] = [];
  const take = (seqs: Iterable<number>, level: number) => {
    const afterHandle = after && level === after[0] ? after[1] : undefined;
    // A product matches once per document (its locale's and its options'): once is enough.
    const positions: number[] = [];
    for (const seq of new Set(seqs)) {
      const p = index.bySeq.get(seq);
      if (p !== undefined && (afterHandle === undefined || index.handles[p]! > afterHandle) && passes(index, filter, p)) positions.push(p);
    }
    positions.sort((a, b) => a - b);
    for (const p of positions) {
      if (found.length > limit) return;
      found.push({ position: p, score: level });
    }
  };
  const start = after ? after[0] : 0;
  if (search.words.length === 1) {
    // One word: a level is one tier less the tiers below it.
    const tiers = wordTiers(search, 0);
    const below = new Set<number>();
    for (let level = 0; level < tiers.length && found.length <= limit; level += 1) {
      const tier = tiers[level]!;
      if (tier.length === 0) continue;
      const seqs: number[] = [];
      for (const query of tier) for (const seq of await matching(database, site, query, search)) if (!below.has(seq)) seqs.push(seq);
      if (level >= start) take(seqs, level);
      for (const seq of seqs) below.add(seq);
    }
  } else {
    const words = search.words.map((_, i) => new WordTiers(wordTiers(search, i), search));
    const top = words.reduce((sum, w) => sum + w.tiers - 1, 0);
    for (let level = start; level <= top && found.length <= limit; level += 1) {
      for (const word of words) await word.upTo(database, site, level);
      const [smallest] = [...words].sort((a, b) => a.best.size - b.best.size);
      const seqs: number[] = [];
      for (const seq of smallest!.best.keys()) {
        let score = 0;
        for (const word of words) score += word.best.get(seq) ?? Infinity;
        if (score === level) seqs.push(seq);
      }
      if (seqs.length === 0) {
        if (words.every((w) => w.complete) && !remains(words, smallest!, level)) break;
        continue;
      }
      take(seqs, level);
    }
  }
  const page = found.slice(0, limit);
  const end = page.at(-1);
  return {
    positions: page.map((f) => f.position),
    page: {
      limit,
      nextCursor: found.length > limit && end ? encodeCursor(kind, JSON.stringify([end.score, index.handles[end.position]!])) : null,
    },
  };
}
