import { randomUUID } from 'node:crypto';
import { rotate, type Plan, type RequestPlan } from './load';
import type { Fixture } from './fixture';

/** What the scenarios send, discovered from the running server's own answers. */
export type Targets = {
  base: string;
  handles: string[];
  /** Every published handle: the cold path (each product asked for once). */
  allHandles: string[];
  productBytes: number;
  listPaths: string[];
  collectionPaths: string[];
  availabilityPaths: string[];
  /** Bytes of one availability answer (for the same-request ceiling). */
  availabilityBytes: number;
  /** Variants the API says are in stock: checkout lines. */
  inStock: string[];
  storefrontPage: boolean;
  staticPage: boolean;
};

export type ScenarioKey =
  | 'product' | 'list' | 'collection' | 'availability' | 'snapshot' | 'checkout' | 'page'
  | 'static' | 'ceiling' | 'floor' | 'product_c1' | 'ceiling_c1' | 'product_cold' | 'ceiling_batch' | 'ceiling_post' | 'ceiling_dynamic';

export type Scenario = {
  key: ScenarioKey;
  label: string;
  connections: number;
  plan: (t: Targets) => () => RequestPlan;
  /** Unmeasured load before the measured window, when it takes longer than the default to reach its steady rate. */
  warmSeconds?: number;
};

const V1 = '/site/v1';
const PAGES = 5;

async function getJson(base: string, path: string, token: string): Promise<{ status: number; body: unknown; bytes: number }> {
  const res = await fetch(`${base}${path}`, { headers: { Authorization: `Bearer ${token}` } });
  const text = await res.text();
  let body: unknown = undefined;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: the status says enough
  }
  return { status: res.status, body, bytes: Buffer.byteLength(text) };
}

async function pagePaths(base: string, first: string, token: string): Promise<string[]> {
  const paths = [first];
  for (let i = 1; i < PAGES; i += 1) {
    const { status, body } = await getJson(base, paths[i - 1]!, token);
    const next = status === 200 ? (body as { page?: { nextCursor?: string | null } }).page?.nextCursor : null;
    if (!next) break;
    paths.push(`${first}&cursor=${encodeURIComponent(next)}`);
  }
  return paths;
}

/** Reads the server once to pick what to send; every pick is something it answers 200 for. */
export async function discover(base: string, fixture: Fixture): Promise<Targets> {
  const token = fixture.storefront;
  const handles: string[] = [];
  const sizes: number[] = [];
  const inStock: string[] = [];
  for (const handle of fixture.handles) {
    if (handles.length >= 100) break;
    const { status, body, bytes } = await getJson(base, `${V1}/commerce/products/${handle}`, token);
    if (status !== 200) continue;
    handles.push(handle);
    sizes.push(bytes);
    for (const v of (body as { variants: { id: string; availability: string }[] }).variants) {
      if (v.availability === 'in_stock') inStock.push(v.id);
    }
  }
  if (handles.length < 10) throw new Error(`only ${handles.length} products answered 200`);
  sizes.sort((a, b) => a - b);

  const collections = await getJson(base, `${V1}/commerce/collections?limit=100`, token);
  const biggest = ((collections.body as { data: { handle: string; productCount: number }[] }).data ?? [])
    .reduce<{ handle: string; productCount: number } | undefined>((a, b) => (!a || b.productCount > a.productCount ? b : a), undefined);
  if (!biggest) throw new Error(`no collections: ${collections.status} ${JSON.stringify(collections.body).slice(0, 300)}`);

  const availabilityPaths: string[] = [];
  for (let i = 0; i + 100 <= fixture.variantIds.length && availabilityPaths.length < 10; i += 100) {
    availabilityPaths.push(`${V1}/commerce/availability?variantIds=${fixture.variantIds.slice(i, i + 100).join(',')}`);
  }

  const batch = await getJson(base, availabilityPaths[0] ?? `${V1}/commerce/availability?variantIds=none`, token);
  const probe = async (path: string) => (await fetch(`${base}${path}`)).status === 200;
  return {
    base,
    handles,
    allHandles: fixture.allHandles,
    productBytes: sizes[Math.floor(sizes.length / 2)]!,
    listPaths: await pagePaths(base, `${V1}/commerce/products?limit=24`, token),
    collectionPaths: await pagePaths(base, `${V1}/commerce/collections/${biggest.handle}?limit=24`, token),
    availabilityPaths,
    availabilityBytes: batch.bytes,
    inStock,
    storefrontPage: await probe(`/products/${handles[0]}`),
    staticPage: await probe('/bench-static'),
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

export function checkoutPlan(t: Targets): () => RequestPlan {
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

function ofPaths(paths: string[]): () => RequestPlan {
  const next = rotate(paths);
  return () => get(next());
}

export const SCENARIOS: Record<ScenarioKey, Scenario> = {
  product: { key: 'product', label: 'Product by handle', connections: 32, plan: (t) => ofPaths(t.handles.map((h) => `${V1}/commerce/products/${h}`)) },
  // The first scenario of the product path after start-up: a longer warm-up than the default.
  product_c1: { key: 'product_c1', label: 'Product by handle (c=1)', connections: 1, plan: (t) => ofPaths(t.handles.map((h) => `${V1}/commerce/products/${h}`)), warmSeconds: 3 },
  product_cold: { key: 'product_cold', label: 'Product by handle, every handle once', connections: 32, plan: (t) => ofPaths(t.allHandles.map((h) => `${V1}/commerce/products/${h}`)) },
  list: { key: 'list', label: 'Product list page (24)', connections: 32, plan: (t) => ofPaths(t.listPaths) },
  collection: { key: 'collection', label: 'Collection page (24)', connections: 32, plan: (t) => ofPaths(t.collectionPaths) },
  availability: { key: 'availability', label: 'Availability batch of 100', connections: 32, plan: (t) => ofPaths(t.availabilityPaths) },
  snapshot: { key: 'snapshot', label: 'Storefront snapshot', connections: 32, plan: () => () => get(`${V1}/commerce/storefront`) },
  // Creation reaches its steady rate only after ~12 s of load on a fresh server (its share of
  // the POST ceiling: 0.44–0.57 over the first 12 s, 0.53–0.63 after; JIT of the write path and
  // its pricing memo): 3 s of warm-up measured mostly the start.
  checkout: { key: 'checkout', label: 'Checkout session (3 lines)', connections: 32, plan: checkoutPlan, warmSeconds: 12 },
  // The first request for each of the 100 pages renders it into Next's page cache: a longer
  // warm-up fills that cache first.
  page: { key: 'page', label: 'Storefront product page (HTML)', connections: 32, plan: (t) => ofPaths(t.handles.map((h) => `/products/${h}`)), warmSeconds: 5 },
  static: { key: 'static', label: 'Static Next page (HTML)', connections: 32, plan: () => () => get('/bench-static') },
  ceiling: { key: 'ceiling', label: 'Framework ceiling (route handler)', connections: 32, plan: (t) => () => get(`/bench-ceiling?bytes=${t.productBytes}`) },
  // Informative, not a target's reference: the ceiling handler sent the batch's own request (its
  // ~2.5 KB query string, which Next parses several times) and answering the batch's size.
  ceiling_batch: {
    key: 'ceiling_batch', label: 'Framework ceiling, batch-sized request', connections: 32,
    plan: (t) => ofPaths(t.availabilityPaths.map((p) => `/bench-ceiling?bytes=${t.availabilityBytes}&${p.split('?')[1] ?? ''}`)),
  },
  // Informative: the ceiling handler's POST, sent checkout's own requests (JSON body, Idempotency-Key).
  ceiling_post: {
    key: 'ceiling_post', label: 'Framework ceiling, POST with a body', connections: 32,
    plan: (t) => {
      const next = checkoutPlan(t);
      return () => ({ ...next(), path: `/bench-ceiling?bytes=${t.productBytes}` });
    },
  },
  // Informative: the ceiling handler behind a dynamic segment, sent product's own paths (what
  // Next spends matching a dynamic route and building its params, which product by handle pays too).
  ceiling_dynamic: {
    key: 'ceiling_dynamic', label: 'Framework ceiling, dynamic route', connections: 32,
    plan: (t) => ofPaths(t.handles.map((h) => `/bench-ceiling/${h}?bytes=${t.productBytes}`)),
  },
  ceiling_c1: { key: 'ceiling_c1', label: 'Framework ceiling (c=1)', connections: 1, plan: (t) => () => get(`/bench-ceiling?bytes=${t.productBytes}`) },
  floor: { key: 'floor', label: 'Bare Node http (floor)', connections: 32, plan: () => () => get('/') },
};

/** Adds a credential to every request of a plan (API scenarios only). */
export function withCredential(next: () => RequestPlan, token: string | null): () => RequestPlan {
  if (!token) return next;
  return () => {
    const r = next();
    return { ...r, headers: { ...r.headers, Authorization: `Bearer ${token}` } };
  };
}

export function planFor(scenario: Scenario, targets: Targets, token: string | null, base = targets.base): Plan {
  return { base, connections: scenario.connections, next: withCredential(scenario.plan(targets), token) };
}
