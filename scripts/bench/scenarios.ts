import { randomUUID } from 'node:crypto';
import { rotate, type Headers, type Plan, type RequestPlan } from './load';
import type { Fixture } from './fixture';
import { discoverSearchQueries, type SearchQueries } from './search';

/** What the scenarios send, discovered from the running server's own answers. */
export type Targets = {
  base: string;
  /** Every product sold in the default market, in an order that spreads consecutive requests over the catalog. */
  allHandles: string[];
  /** Every page of the products list (24 a page), of the biggest collection, and every batch of 100 variants. */
  listPaths: string[];
  collectionPaths: string[];
  availabilityPaths: string[];
  /** The snapshot in each market and language the Site offers. */
  snapshotPaths: string[];
  /** Variants the API says are in stock: checkout lines. */
  inStock: string[];
  /** Median bytes of each scenario's answers: what its reference route answers. */
  bytes: Partial<Record<ScenarioKey, number>>;
  /** The storefront page the reference serves byte for byte. */
  pageHtml: string;
  /** Search requests discovered from the catalog's own titles (scripts/bench/search.ts). */
  search: SearchQueries;
};

/**
 * The reference each target is a ratio to, in the bare Next app of scripts/bench/reference-app
 * (its own process): a route handler at a static path, one behind a dynamic segment at the
 * path shape of a read by handle (a product, a collection's page), a POST route that parses
 * its JSON body, and a route that serves the storefront page's exact bytes at the
 * storefront's path shape; and, to show what a render of ours costs beside Next's own, a bare
 * page Next renders on its first request and keeps (on-demand ISR, as the shop keeps product
 * pages), about as many bytes as the shop's.
 */
export type ReferenceKind = 'static' | 'dynamic' | 'post' | 'page' | 'rendered';

export type ScenarioKey =
  | 'product'
  | 'product_c1'
  | 'product_changed'
  | 'product_cold'
  | 'product_warm'
  | 'list'
  | 'collection'
  | 'availability'
  | 'snapshot'
  | 'checkout'
  | 'page'
  | 'page_changed'
  | 'page_render'
  | 'page_cold'
  | 'page_warm'
  | 'search_words'
  | 'search_prefix'
  | 'search_faceted'
  | 'search_words_c1'
  | 'search_prefix_c1'
  | 'search_faceted_c1';

export type Scenario = {
  key: ScenarioKey;
  label: string;
  connections: number;
  /** Sent with the Site credential (API operations) or without (storefront pages). */
  api: boolean;
  plan: (t: Targets) => () => RequestPlan;
  reference: ReferenceKind;
  /** The benchmark changes one product's prices right before the scenario (run.ts). */
  changesCatalog?: true;
  /**
   * Not slices against the reference but whole passes over the catalog on a server started
   * for them (run.ts, catalogPasses): its first pass (`cold`) or its second (`warm`).
   */
  pass?: 'cold' | 'warm';
  /** Storefront pages: each answer is counted as kept or rendered (pageSource). */
  pages?: true;
  /** The target: at least this share of the reference's req/s (and p99 at most this multiple of its p99); at c=1, a p50. */
  target?: { ratio?: number; p99?: number; p50Ms?: number };
};

export const V1 = '/site/v1';

/** Names the bare rendered pages of this run (see referencePlan). */
const RUN = randomUUID().slice(0, 8);

async function getJson(base: string, path: string, token: string): Promise<{ status: number; body: unknown; bytes: number }> {
  const res = await fetch(`${base}${path}`, { headers: { Authorization: `Bearer ${token}`, 'Accept-Encoding': 'identity' } });
  const text = await res.text();
  let body: unknown = undefined;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: the status says enough
  }
  return { status: res.status, body, bytes: Buffer.byteLength(text) };
}

/** Every page of a list, following its cursors (at most `max` pages). */
async function everyPage(base: string, first: string, token: string, max: number): Promise<{ paths: string[]; bytes: number[] }> {
  const paths: string[] = [];
  const bytes: number[] = [];
  let path: string | null = first;
  while (path && paths.length < max) {
    const answer = await getJson(base, path, token);
    if (answer.status !== 200) throw new Error(`${path} answered ${answer.status}`);
    paths.push(path);
    bytes.push(answer.bytes);
    const next = (answer.body as { page?: { nextCursor?: string | null } }).page?.nextCursor;
    path = next ? `${first}&cursor=${encodeURIComponent(next)}` : null;
  }
  return { paths, bytes };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** Reads the server once to pick what to send; every pick is something it answers 200 for. */
export async function discover(base: string, fixture: Fixture): Promise<Targets> {
  const token = fixture.storefront;
  const bytes: Targets['bytes'] = {};
  const productBytes: number[] = [];
  const inStock: string[] = [];
  // A sample for the sizes and checkout's lines; every handle is sold in the default market (fixture.ts).
  for (let i = 0; i < fixture.allHandles.length && productBytes.length < 100; i += Math.ceil(fixture.allHandles.length / 100)) {
    const { status, body, bytes: size } = await getJson(base, `${V1}/commerce/products/${fixture.allHandles[i]}`, token);
    if (status !== 200) throw new Error(`product ${fixture.allHandles[i]} answered ${status}`);
    productBytes.push(size);
    for (const v of (body as { variants: { id: string; availability: string }[] }).variants) {
      if (v.availability === 'in_stock') inStock.push(v.id);
    }
  }
  bytes.product = median(productBytes);
  bytes.product_c1 = bytes.product;

  const list = await everyPage(base, `${V1}/commerce/products?limit=24`, token, 1000);
  bytes.list = median(list.bytes);

  const collections = await getJson(base, `${V1}/commerce/collections?limit=100`, token);
  const biggest = ((collections.body as { data: { handle: string; productCount: number }[] }).data ?? []).reduce<
    { handle: string; productCount: number } | undefined
  >((a, b) => (!a || b.productCount > a.productCount ? b : a), undefined);
  if (!biggest) throw new Error(`no collections: ${collections.status}`);
  const collection = await everyPage(base, `${V1}/commerce/collections/${biggest.handle}?limit=24`, token, 1000);
  bytes.collection = median(collection.bytes);

  const availabilityPaths: string[] = [];
  for (let i = 0; i < fixture.variantIds.length; i += 100) {
    availabilityPaths.push(`${V1}/commerce/availability?variantIds=${fixture.variantIds.slice(i, i + 100).join(',')}`);
  }
  bytes.availability = (await getJson(base, availabilityPaths[0]!, token)).bytes;

  const site = (await getJson(base, `${V1}/site`, token)).body as { markets: { id: string; locales: string[] }[] };
  const snapshotPaths = site.markets.flatMap((m) => m.locales.map((l) => `${V1}/commerce/storefront?market=${m.id}&locale=${l}`));
  const snapshots = await Promise.all(snapshotPaths.map((p) => getJson(base, p, token)));
  bytes.snapshot = median(snapshots.map((s) => s.bytes));

  const created = await fetch(`${base}${V1}/commerce/checkout-sessions`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${token}`,
      'Content-Type': 'application/json',
      'Idempotency-Key': randomUUID(),
      'Accept-Encoding': 'identity',
    },
    body: JSON.stringify({ lines: inStock.slice(0, 3).map((variantId) => ({ variantId, quantity: 1 })) }),
  });
  if (created.status !== 201) throw new Error(`checkout answered ${created.status}`);
  bytes.checkout = Buffer.byteLength(await created.text());

  const search = await discoverSearchQueries((path) => getJson(base, path, token));
  for (const [key, paths] of [
    ['search_words', search.twoWord],
    ['search_prefix', search.prefix],
    ['search_faceted', search.faceted],
  ] as const) {
    if (paths.length === 0) throw new Error(`no ${key} queries found in the catalog`);
    bytes[key] = median(await Promise.all(paths.slice(0, 20).map(async (p) => (await getJson(base, p, token)).bytes)));
    bytes[`${key}_c1`] = bytes[key];
  }

  const page = await fetch(`${base}/products/${fixture.allHandles[0]}`, { headers: { 'Accept-Encoding': 'identity' } });
  if (page.status !== 200) throw new Error(`the storefront product page answered ${page.status}`);
  const pageHtml = await page.text();
  bytes.page = Buffer.byteLength(pageHtml);

  return {
    base,
    allHandles: fixture.allHandles,
    listPaths: list.paths,
    collectionPaths: collection.paths,
    availabilityPaths,
    snapshotPaths,
    inStock,
    bytes,
    pageHtml,
    search,
  };
}

const get = (path: string): RequestPlan => ({ path });

export function signupRequest(): RequestPlan {
  return {
    method: 'POST',
    path: `${V1}/newsletter/subscriptions`,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      email: `bench-${randomUUID()}@example.com`,
      consent: { granted: true, text: 'Send me the newsletter.', version: 'bench-1' },
    }),
  };
}

export function checkoutPlan(t: Pick<Targets, 'inStock'>): () => RequestPlan {
  if (t.inStock.length < 3) throw new Error('fewer than 3 in-stock variants to check out');
  let i = 0;
  return () => {
    const lines = [0, 1, 2].map((k) => ({ variantId: t.inStock[(i + k * 7) % t.inStock.length]!, quantity: 1 }));
    i += 1;
    return {
      method: 'POST',
      path: `${V1}/commerce/checkout-sessions`,
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() },
      body: JSON.stringify({ lines }),
    };
  };
}

/** Product pages in the seeded default market's second language (see page_render). */
function renderedPagePlan(t: Targets): () => RequestPlan {
  const next = ofPaths([...t.allHandles].reverse().map((h) => `/products/${h}`));
  return () => {
    const r = next();
    return { ...r, headers: { ...r.headers, Cookie: 'market=se; locale=en-SE' } };
  };
}

/**
 * How a product page was answered: `stored` or `revalidated` (kept in the database: the
 * proxy's X-Page-Source), `next-<hit|stale>` (from Next's own page cache), or `rendered` (no
 * such header, or Next's cache missed: rendered for this request).
 */
export function pageSource(headers: Headers): string {
  let source: string | undefined;
  let nextCache: string | undefined;
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    const text = Array.isArray(value) ? value[0] : value;
    if (lower === 'x-page-source') source = text;
    else if (lower === 'x-nextjs-cache') nextCache = text?.toLowerCase();
  }
  if (source) return source;
  return nextCache && nextCache !== 'miss' ? `next-${nextCache}` : 'rendered';
}

/** Answers of a page tally that came kept, in any way (pageSource). */
export function keptOf(tally: Record<string, number>): number {
  return Object.entries(tally)
    .filter(([kind]) => kind !== 'rendered')
    .reduce((a, [, n]) => a + n, 0);
}

export function ofPaths(paths: string[]): () => RequestPlan {
  const next = rotate(paths);
  return () => get(next());
}

const productPaths = (t: Targets) => t.allHandles.map((h) => `${V1}/commerce/products/${h}`);
/** The catalog from its middle on, then its first half. */
const fromTheMiddle = <T>(items: T[]) => [...items.slice(items.length >> 1), ...items.slice(0, items.length >> 1)];

export const SCENARIOS: Record<ScenarioKey, Scenario> = {
  product: {
    key: 'product',
    label: 'Product by handle',
    connections: 32,
    api: true,
    plan: (t) => ofPaths(productPaths(t)),
    reference: 'dynamic',
    target: { ratio: 0.85, p99: 1.3 },
  },
  // Right after one product's prices changed (through the catalog command): the other
  // products' answers should still come from the caches (issue #44). From the middle of the
  // catalog, as page_changed.
  product_changed: {
    key: 'product_changed',
    label: 'Product after a price change',
    connections: 32,
    api: true,
    changesCatalog: true,
    plan: (t) => ofPaths(fromTheMiddle(t.allHandles).map((h) => `${V1}/commerce/products/${h}`)),
    reference: 'dynamic',
    target: { ratio: 0.85 },
  },
  // One pass over every product on a server just started, and the second pass (run.ts).
  product_cold: {
    key: 'product_cold',
    label: 'Product, first pass after a start',
    connections: 32,
    api: true,
    pass: 'cold',
    plan: (t) => ofPaths(productPaths(t)),
    reference: 'dynamic',
    target: { ratio: 0.75 },
  },
  product_warm: {
    key: 'product_warm',
    label: 'Product, second pass',
    connections: 32,
    api: true,
    pass: 'warm',
    plan: (t) => ofPaths(productPaths(t)),
    reference: 'dynamic',
    target: { ratio: 0.95, p99: 1.3 },
  },
  product_c1: {
    key: 'product_c1',
    label: 'Product by handle (c=1)',
    connections: 1,
    api: true,
    plan: (t) => ofPaths(productPaths(t)),
    reference: 'dynamic',
  },
  list: {
    key: 'list',
    label: 'Product list page (24)',
    connections: 32,
    api: true,
    plan: (t) => ofPaths(t.listPaths),
    reference: 'static',
    target: { ratio: 0.8 },
  },
  collection: {
    key: 'collection',
    label: 'Collection page (24)',
    connections: 32,
    api: true,
    plan: (t) => ofPaths(t.collectionPaths),
    reference: 'dynamic',
    target: { ratio: 0.8 },
  },
  availability: {
    key: 'availability',
    label: 'Availability batch of 100',
    connections: 32,
    api: true,
    plan: (t) => ofPaths(t.availabilityPaths),
    reference: 'static',
    target: { ratio: 0.8 },
  },
  snapshot: {
    key: 'snapshot',
    label: 'Storefront snapshot',
    connections: 32,
    api: true,
    plan: (t) => ofPaths(t.snapshotPaths),
    reference: 'static',
    target: { ratio: 0.8 },
  },
  checkout: {
    key: 'checkout',
    label: 'Checkout session (3 lines)',
    connections: 32,
    api: true,
    plan: checkoutPlan,
    reference: 'post',
    target: { ratio: 0.6 },
  },
  page: {
    key: 'page',
    label: 'Storefront product page (HTML)',
    connections: 32,
    api: false,
    plan: (t) => ofPaths(t.allHandles.map((h) => `/products/${h}`)),
    reference: 'page',
    pages: true,
    target: { ratio: 0.5 },
  },
  // The same pages right after one product's prices changed (through the catalog command):
  // only the pages that show that product should need anything done (issue #44), so the
  // kept page's target. From the middle of the catalog, so the pages just served by `page`
  // are not all the first ones. The answers are counted as kept or rendered.
  page_changed: {
    key: 'page_changed',
    label: 'Storefront page after a price change',
    connections: 32,
    api: false,
    changesCatalog: true,
    plan: (t) => ofPaths(fromTheMiddle(t.allHandles).map((h) => `/products/${h}`)),
    reference: 'page',
    pages: true,
    target: { ratio: 0.5 },
  },
  // Every product page once on a server just started (pages kept in the database by the
  // instance that rendered them ahead), and the second pass (run.ts).
  page_cold: {
    key: 'page_cold',
    label: 'Storefront page, first pass after a start',
    connections: 32,
    api: false,
    pass: 'cold',
    plan: (t) => ofPaths(t.allHandles.map((h) => `/products/${h}`)),
    reference: 'page',
    pages: true,
  },
  page_warm: {
    key: 'page_warm',
    label: 'Storefront page, second pass',
    connections: 32,
    api: false,
    pass: 'warm',
    plan: (t) => ofPaths(t.allHandles.map((h) => `/products/${h}`)),
    reference: 'page',
    pages: true,
    target: { ratio: 0.5 },
  },
  // The same pages in the default market's other language, which nothing rendered ahead
  // (run.ts renders the default one), from the other end of the catalog: every view is a
  // render. Against a bare page rendered on its first request: what a render of ours costs
  // beside Next's own.
  page_render: {
    key: 'page_render',
    label: 'Storefront page vs a bare render',
    connections: 32,
    api: false,
    plan: renderedPagePlan,
    reference: 'rendered',
    pages: true,
    target: { ratio: 0.8 },
  },
  search_words: {
    key: 'search_words',
    label: 'Search, two words',
    connections: 32,
    api: true,
    plan: (t) => ofPaths(t.search.twoWord),
    reference: 'static',
    target: { ratio: 0.5 },
  },
  search_prefix: {
    key: 'search_prefix',
    label: 'Search, one letter',
    connections: 32,
    api: true,
    plan: (t) => ofPaths(t.search.prefix),
    reference: 'static',
    target: { ratio: 0.5 },
  },
  search_faceted: {
    key: 'search_faceted',
    label: 'Search, filtered + facets',
    connections: 32,
    api: true,
    plan: (t) => ofPaths(t.search.faceted),
    reference: 'static',
    target: { ratio: 0.5 },
  },
  search_words_c1: {
    key: 'search_words_c1',
    label: 'Search, two words (c=1)',
    connections: 1,
    api: true,
    plan: (t) => ofPaths(t.search.twoWord),
    reference: 'static',
    target: { p50Ms: 5 },
  },
  search_prefix_c1: {
    key: 'search_prefix_c1',
    label: 'Search, one letter (c=1)',
    connections: 1,
    api: true,
    plan: (t) => ofPaths(t.search.prefix),
    reference: 'static',
    target: { p50Ms: 5 },
  },
  search_faceted_c1: {
    key: 'search_faceted_c1',
    label: 'Search, filtered + facets (c=1)',
    connections: 1,
    api: true,
    plan: (t) => ofPaths(t.search.faceted),
    reference: 'static',
    target: { p50Ms: 5 },
  },
};

/**
 * The reference's requests for a scenario: the scenario's own requests (the same request
 * target's query, headers and body, so the reference pays what Next pays to take them in:
 * a 2.5 KB query of 100 variant ids, a JSON body), sent to the reference route of its
 * kind, which answers the scenario's median size. Reads by handle (a product, a collection's
 * page) keep their path, a dynamic segment; the others go to `/static` or `/post`; storefront
 * pages to the page route, or to a bare rendered page of a name of their own.
 */
export function referencePlan(scenario: Scenario, t: Targets, token: string | null): () => RequestPlan {
  const bytes = t.bytes[scenario.key] ?? 5120;
  const next = withCredential(scenario.plan(t), scenario.api ? token : null);
  const at = (path: string, r: RequestPlan) => {
    const q = r.path.indexOf('?');
    return { ...r, path: `${path}?bytes=${bytes}${q < 0 ? '' : `&${r.path.slice(q + 1)}`}` };
  };
  switch (scenario.reference) {
    case 'static':
      return () => at('/static', next());
    case 'dynamic':
      return () => {
        const r = next();
        const q = r.path.indexOf('?');
        return at(q < 0 ? r.path : r.path.slice(0, q), r);
      };
    case 'post':
      return () => at('/post', next());
    case 'page':
      return next;
    case 'rendered':
      // A name of this run's own: a page the reference app has kept (on disk, by default)
      // from an earlier run must not answer as a kept copy.
      return () => {
        const r = next();
        return { ...r, path: r.path.replace(/^\/products\//, `/rendered/${RUN}-`) };
      };
  }
}

/** Adds a credential to every request of a plan (API scenarios only). */
export function withCredential(next: () => RequestPlan, token: string | null): () => RequestPlan {
  if (!token) return next;
  return () => {
    const r = next();
    return { ...r, headers: { ...r.headers, Authorization: `Bearer ${token}` } };
  };
}

export function planFor(scenario: Scenario, targets: Targets, token: string | null): Plan {
  return {
    base: targets.base,
    connections: scenario.connections,
    next: withCredential(scenario.plan(targets), scenario.api ? token : null),
    ...(scenario.pages ? { tally: pageSource } : {}),
  };
}
