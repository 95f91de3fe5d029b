import { newStemmer } from 'snowball-stemmers';

/**
 * Word forms for search: Snowball's stemmers (the maintained algorithms of snowballstem.org,
 * ported to JavaScript) reduce "mugs" and "mug" to "mug", "muggar" and "mugg" to "mugg",
 * "Handtücher" and "Handtuch" to "handtuch". The index keeps words as written (FTS5's
 * tokenizers have no stemmer, and a remote libSQL server loads no extensions), so the stems
 * are taken on both sides here: of the query's words and of the index's vocabulary, and a
 * query word is searched as every indexed word with its stem (docs/catalog.md, "Search").
 */

/** Snowball's algorithm per language (a locale's first subtag); a language not here is not stemmed. */
const ALGORITHMS: Record<string, string> = {
  da: 'danish',
  de: 'german',
  en: 'english',
  es: 'spanish',
  fi: 'finnish',
  fr: 'french',
  it: 'italian',
  nb: 'norwegian',
  nl: 'dutch',
  nn: 'norwegian',
  no: 'norwegian',
  pt: 'portuguese',
  sv: 'swedish',
};

/** A locale's language: 'sv-SE' → 'sv'. */
export function languageOf(locale: string): string {
  return locale.split('-')[0]!.toLowerCase();
}

export type Stem = (word: string) => string;

/** Stems already taken, per language: a stemmer costs tens of microseconds a word, and searches repeat words. */
const MAX_MEMO = 50_000;
const stemmers = new Map<string, Stem>();

/** The stemmer of a language (lower-case words in, as the index keeps them); a language without one keeps its words. */
export function stemmerOf(language: string): Stem {
  const known = stemmers.get(language);
  if (known) return known;
  const algorithm = ALGORITHMS[language];
  let stem: Stem = (word) => word;
  if (algorithm) {
    const stemmer = newStemmer(algorithm);
    const memo = new Map<string, string>();
    stem = (word) => {
      let s = memo.get(word);
      if (s === undefined) {
        if (memo.size >= MAX_MEMO) memo.clear();
        s = stemmer.stem(word);
        memo.set(word, s);
      }
      return s;
    };
  }
  stemmers.set(language, stem);
  return stem;
}

/**
 * Compound parts (docs/catalog.md, "Compounds"). A query word finds a compound of the index
 * when its stem is one of the compound's two parts:
 * - the first part (kudde → kudd-fodral, Wolle → Woll-decke): the query's stem begins the
 *   compound, and what follows is a part of its own (at least REST_MIN letters). The stem must
 *   have MODIFIER_QUERY_MIN letters: a shorter one begins many words by chance (vas → västkusten).
 * - the last part (mugg → keramik-mugg, Lampe → Filament-lampe): the compound's stem ends in
 *   the query's stem, and what comes before it is a part the catalog knows on its own: a word
 *   of the index (Filament, Bastu, Merino), a word's stem, or the first part of compounds with
 *   different heads (Keramik- in Keramikvase and Keramikbecher, Hand- in Handtuch and
 *   Handfilter), possibly with a linking -s, -e, -n, -en, -er or -es. So Baumwolle (cotton) is
 *   not found by Wolle: Baum- stands nowhere else in the catalog.
 */
const MODIFIER_QUERY_MIN = 4;
const HEAD_QUERY_MIN = 3;
const MODIFIER_MIN = 4;
const REST_MIN = 3;
const LINKS = ['s', 'e', 'n', 'en', 'er', 'es'];
/** At most this many indexed words stand for one query word (each becomes a term of an OR). */
const MAX_EXPANSION = 40;
/** Inflections add at most this many letters to a stem (Swedish -arnas, German -ungen). */
const MAX_ENDING = 6;
const MAX_EXPANSION_MEMO = 5_000;

export type Expansion = { forms: string[]; parts: string[] };

/** The index's words (lower-case, diacritics removed), sorted for prefix lookups. */
export class Vocabulary {
  private readonly terms: string[];
  private readonly set: Set<string>;
  private readonly expansions = new Map<string, Expansion>();

  constructor(terms: Iterable<string>) {
    this.set = new Set(terms);
    this.terms = [...this.set].sort();
  }

  get size(): number {
    return this.terms.length;
  }

  has(term: string): boolean {
    return this.set.has(term);
  }

  /** The words that begin with the prefix, in order. */
  withPrefix(prefix: string): string[] {
    let lo = 0;
    let hi = this.terms.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.terms[mid]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    const out: string[] = [];
    for (let i = lo; i < this.terms.length && this.terms[i]!.startsWith(prefix); i++) out.push(this.terms[i]!);
    return out;
  }

  /**
   * The indexed words a query word (lower-case, folded) stands for in a language: its forms
   * (other words with its stem) and the compounds it is a part of. Words under three letters
   * have neither (their stems would be anything).
   */
  expand(word: string, language: string): Expansion {
    const key = `${language}|${word}`;
    const known = this.expansions.get(key);
    if (known) return known;
    const stem = stemmerOf(language);
    const s = stem(word);
    let expansion: Expansion = { forms: [], parts: [] };
    if (word.length >= 3 && s.length >= HEAD_QUERY_MIN) {
      const forms = this.forms(word, s, stem);
      expansion = { forms, parts: this.parts(s, language, forms) };
    }
    if (this.expansions.size >= MAX_EXPANSION_MEMO) this.expansions.clear();
    this.expansions.set(key, expansion);
    return expansion;
  }

  /** Words with the stem: they begin with it, but for English's y → i (bodies, body: bodi). */
  private forms(word: string, s: string, stem: Stem): string[] {
    const starts = [s];
    if (s.endsWith('i')) starts.push(`${s.slice(0, -1)}y`);
    const out: string[] = [];
    for (const start of starts)
      for (const t of this.withPrefix(start)) {
        if (out.length === MAX_EXPANSION) return out;
        if (t !== word && t.length <= s.length + MAX_ENDING && stem(t) === s) out.push(t);
      }
    return out;
  }

  private parts(s: string, language: string, forms: string[]): string[] {
    const stem = stemmerOf(language);
    const out: string[] = [];
    if (s.length >= MODIFIER_QUERY_MIN)
      for (const t of this.withPrefix(s)) {
        if (out.length === MAX_EXPANSION) return out;
        if (t.length - s.length >= REST_MIN && !forms.includes(t)) out.push(t);
      }
    // Compounds whose stem ends in s: the words with s from MODIFIER_MIN letters in and at most
    // an ending after it, found in one string of every word (a native search, not a loop).
    const { joined, starts } = this.joinedTerms();
    let last = -1;
    for (let at = joined.indexOf(s); at >= 0 && out.length < MAX_EXPANSION; at = joined.indexOf(s, at + 1)) {
      let lo = 0;
      let hi = starts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (starts[mid]! <= at) lo = mid;
        else hi = mid - 1;
      }
      if (lo === last) continue;
      const t = this.terms[lo]!;
      const k = at - starts[lo]!;
      if (k < MODIFIER_MIN || t.length - k - s.length > MAX_ENDING) continue;
      last = lo;
      const ts = stem(t);
      if (ts.length - s.length >= MODIFIER_MIN && ts.endsWith(s) && this.isPart(ts.slice(0, ts.length - s.length), language)) out.push(t);
    }
    return out;
  }

  private joined?: { joined: string; starts: Int32Array };

  /** Every word in one string, each after a newline, and where each starts. */
  private joinedTerms(): { joined: string; starts: Int32Array } {
    if (!this.joined) {
      const starts = new Int32Array(this.terms.length);
      let at = 1;
      this.terms.forEach((t, i) => {
        starts[i] = at;
        at += t.length + 1;
      });
      this.joined = { joined: `\n${this.terms.join('\n')}\n`, starts };
    }
    return this.joined;
  }

  /** Whether the first part of a compound is known to the catalog on its own (see above). */
  isPart(modifier: string, language: string): boolean {
    const key = `${language}|${modifier}`;
    let known = this.knownParts.get(key);
    if (known === undefined) {
      known = this.findPart(modifier, stemmerOf(language));
      if (this.knownParts.size >= MAX_EXPANSION_MEMO) this.knownParts.clear();
      this.knownParts.set(key, known);
    }
    return known;
  }

  private readonly knownParts = new Map<string, boolean>();

  private findPart(modifier: string, stem: Stem): boolean {
    const bases = [modifier, ...LINKS.filter((l) => modifier.endsWith(l)).map((l) => modifier.slice(0, -l.length))];
    for (const base of bases) {
      if (base.length < MODIFIER_MIN) continue;
      if (this.set.has(base)) return true;
      const next = new Set<string>();
      for (const t of this.withPrefix(base)) {
        if (t.length <= base.length + MAX_ENDING && stem(t) === base) return true;
        if (t.length - base.length >= REST_MIN) next.add(t[base.length]!);
      }
      if (next.size >= 2) return true;
    }
    return false;
  }
}
