// Search scenarios for the benchmark (for scripts/bench/run.ts to wire in): realistic queries
// discovered from the catalog itself, each scenario rotating over a set of them, so a measured
// window is mostly uncached answers (the page cache holds one entry per distinct query and
// version) rather than one query repeated.
//
//   const plans = await searchPlans(base, credential);
//   plans.twoWord()   // { path: '/site/v1/commerce/products?q=bj%C3%B6rk%20f%C3%B6rkl%C3%A4de&limit=24' }
//
// search-growth.ts uses the same discovery in-process (no server), through `SearchGet`.

const V1 = '/site/v1';
const PAGE = 24;
/** Titles read for words: 8 pages of 100, spread over the catalog by the sort. */
const TITLE_PAGES = 8;
const TWO_WORD_QUERIES = 300;
const FACETED_QUERIES = 60;

export type SearchPlan = () => { path: string };
export type SearchPlans = { twoWord: SearchPlan; prefix: SearchPlan; faceted: SearchPlan };
export type SearchQueries = { twoWord: string[]; prefix: string[]; faceted: string[] };
/** GET a path of the API with the credential: status and parsed JSON body. */
export type SearchGet = (path: string) => Promise<{ status: number; body: unknown }>;

type ListPage = {
  data: { title: string }[];
  page: { nextCursor: string | null };
  facets?: {
    options: { name: string; values: { value: string; count: number }[] }[];
    price: { min: { amount: string }; max: { amount: string } } | null;
  };
};

/** A deterministic shuffle (the same queries in the same order on every run). */
function shuffled<T>(items: readonly T[], seed = 23): T[] {
  const out = [...items];
  let s = seed;
  for (let i = out.length - 1; i > 0; i -= 1) {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

function rotate<T>(items: readonly T[]): () => T {
  if (items.length === 0) throw new Error('no search queries discovered');
  let i = 0;
  return () => items[i++ % items.length]!;
}

const words = (title: string) =>
  title
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);

async function listPage(get: SearchGet, query: string): Promise<ListPage> {
  const { status, body } = await get(`${V1}/commerce/products?${query}`);
  if (status !== 200) throw new Error(`products?${query} answered ${status}: ${JSON.stringify(body).slice(0, 300)}`);
  return body as ListPage;
}

/**
 * The queries, discovered from what the API answers in the Site's default market and locale:
 * - two words as a shopper types them from a product title (a name and a noun, "björk förkläde");
 * - every first letter of a title word (`q=m`, the first keystroke of a search-as-you-type box);
 * - one title word with the facets' own most common option value and the middle of the facets'
 *   price range as filters, `facets=true` (a shopper who clicked two facets).
 */
export async function discoverSearchQueries(get: SearchGet): Promise<SearchQueries> {
  const titles: string[] = [];
  let query = `limit=100&sort=price-asc`;
  for (let i = 0; i < TITLE_PAGES; i += 1) {
    const page = await listPage(get, query);
    titles.push(...page.data.map((p) => p.title));
    if (!page.page.nextCursor) break;
    query = `limit=100&sort=price-asc&cursor=${encodeURIComponent(page.page.nextCursor)}`;
  }
  const pairs = new Set<string>();
  const letters = new Set<string>();
  const single = new Set<string>();
  for (const title of titles) {
    const ws = words(title);
    for (const w of ws) {
      const first = String.fromCodePoint(w.codePointAt(0)!);
      if (/\p{L}/u.test(first)) letters.add(first);
      if (w.length >= 4) single.add(w);
    }
    for (let i = 0; i + 1 < ws.length; i += 1) pairs.add(`${ws[i]} ${ws[i + 1]}`);
  }
  const twoWord = shuffled([...pairs]).slice(0, TWO_WORD_QUERIES);
  const prefix = shuffled([...letters]);

  const faceted: string[] = [];
  for (const word of shuffled([...single])) {
    if (faceted.length >= FACETED_QUERIES) break;
    const { facets } = await listPage(get, `q=${encodeURIComponent(word)}&limit=1&facets=true`);
    if (!facets?.price) continue;
    const top = facets.options
      .flatMap((o) => o.values.map((v) => ({ option: `${o.name}:${v.value}`, count: v.count })))
      .sort((a, b) => b.count - a.count)[0];
    if (!top) continue;
    const min = Number(facets.price.min.amount);
    const max = Number(facets.price.max.amount);
    const low = Math.floor(min + (max - min) / 4);
    const high = Math.ceil(max - (max - min) / 4);
    faceted.push(`q=${encodeURIComponent(word)}&option=${encodeURIComponent(top.option)}&priceMin=${low}&priceMax=${high}&facets=true`);
  }
  const page = (q: string) => `${V1}/commerce/products?${q}&limit=${PAGE}`;
  return {
    twoWord: twoWord.map((q) => page(`q=${encodeURIComponent(q)}`)),
    prefix: prefix.map((q) => page(`q=${encodeURIComponent(q)}`)),
    faceted: faceted.map(page),
  };
}

/** The three search scenarios' request plans against a running server. */
export async function searchPlans(base: string, credential: string): Promise<SearchPlans> {
  const get: SearchGet = async (path) => {
    const res = await fetch(`${base}${path}`, { headers: { Authorization: `Bearer ${credential}` } });
    return { status: res.status, body: await res.json() };
  };
  const queries = await discoverSearchQueries(get);
  const plan = (paths: string[]): SearchPlan => {
    const next = rotate(paths);
    return () => ({ path: next() });
  };
  return { twoWord: plan(queries.twoWord), prefix: plan(queries.prefix), faceted: plan(queries.faceted) };
}
