// npx tsx --conditions=react-server scripts/bench/list-attack.ts [--products=10000] [--seconds=10] [--port=3611] [--profile=<dir>]
//
// Issue #42: one anonymous visitor asking for expensive list pages stalls the instance. Measures
// against a running server (run.ts calls `listAttack` on its 10k server; on its own this file
// seeds a catalog and starts one, from the build in NEXT_DIST_DIR, default .next-bench):
// - the worst list requests of the API, uncached: each kind with a new priceMax every time
//   (a new page-cache key), sequentially; the first request after the catalog changed is
//   reported on its own (it builds the list index);
// - a probing shopper's product page (/products/<handle>, a few handles, sequential): p50 and
//   p90 idle, then while an attacker loops on the worst storefront search page
//   (/search?sort=title-asc&priceMax=<new>&… with 20 option filters), one request at a time
//   as in the issue, and then with 8 connections at once. The attacker's pages are paced per
//   shopper (lib/server/page-pacer.ts): its page counts and p50 show how much it got.
// Prints one JSON line {"listAttack": …}.
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { changeOnePrice, makeFixture, type Fixture } from './fixture';
import { stopAll } from './processes';
import { startNextServer } from './server';

const V1 = '/site/v1';
type Stats = { n: number; p50: number; p90: number; max: number; errors: number; statuses: Record<string, number> };

const round = (ms: number) => Math.round(ms * 10) / 10;
function stats(samples: number[], statuses: Record<string, number>): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN);
  const errors = Object.entries(statuses)
    .filter(([s]) => s !== '200')
    .reduce((n, [, c]) => n + c, 0);
  return { n: sorted.length, p50: at(0.5), p90: at(0.9), max: at(1), errors, statuses };
}

/**
 * A GET, timed to its last byte. `from` is the local address to connect from: the attacker
 * comes from 127.0.0.2, so the shop sees another shopper than the probe (127.0.0.1).
 */
function timed(url: string, headers: Record<string, string>, from = '127.0.0.1'): Promise<{ ms: number; status: string }> {
  const t = performance.now();
  return new Promise((resolve) => {
    const req = request(url, { headers, localAddress: from, timeout: 30_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve({ ms: performance.now() - t, status: String(res.statusCode) }));
      res.on('error', () => resolve({ ms: performance.now() - t, status: 'reset' }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (error) => resolve({ ms: performance.now() - t, status: error.message === 'timeout' ? 'timeout' : 'reset' }));
    req.end();
  });
}

type Sink = { samples: number[]; statuses: Record<string, number> };
const sink = (): Sink => ({ samples: [], statuses: {} });

/** Sequential requests from `next()` until `until` (ms, performance.now), into the sink. */
async function loop(
  next: () => string,
  headers: Record<string, string>,
  until: number,
  into: Sink = sink(),
  from?: string,
): Promise<Stats> {
  while (performance.now() < until) {
    const { ms, status } = await timed(next(), headers, from);
    into.samples.push(ms);
    into.statuses[status] = (into.statuses[status] ?? 0) + 1;
  }
  return stats(into.samples, into.statuses);
}

export type ListAttack = {
  worst: Record<string, Stats>;
  worstP50: { kind: string; ms: number };
  firstAfterChange: { kind: string; ms: number };
  probe: { idle: Stats; attackerC1: Stats; attackerC8: Stats };
  attacker: { c1: Stats; c8: Stats };
};

/**
 * The issue's requests, each kind with a price of its own every time. `options` are the 20
 * `Name:Value` filters the facets of the whole list offer first.
 */
function worstKinds(options: string[]): Record<string, (price: number) => string> {
  const opts = options.map((o) => `option=${encodeURIComponent(o)}`).join('&');
  return {
    'sort=title-asc&priceMax': (p) => `sort=title-asc&priceMax=${p}.00`,
    'facets=true&priceMax': (p) => `facets=true&priceMax=${p}.00`,
    'sort=title-asc&limit=100&priceMax': (p) => `sort=title-asc&limit=100&priceMax=${p}.00`,
    '20 options+facets': (p) => `${opts}&facets=true&priceMax=${p}.00`,
    'q=m&limit=100 priced out': (p) => `q=m&limit=100&priceMin=${p}.00&priceMax=${p}.00`,
    'q=e&sort=title-asc&facets 20 options': (p) => `q=e&sort=title-asc&limit=100&facets=true&available=true&${opts}&priceMax=${p}.00`,
  };
}

export async function listAttack(
  base: string,
  fixture: Fixture,
  credential: string,
  seconds: number,
  log: (m: string) => void,
): Promise<ListAttack> {
  const api = { Authorization: `Bearer ${credential}` };
  const first = await fetch(`${base}${V1}/commerce/products?limit=1&facets=true`, { headers: api });
  if (!first.ok) throw new Error(`products?facets=true answered ${first.status}`);
  const { facets } = (await first.json()) as { facets: { options: { name: string; values: { value: string }[] }[] } };
  const options = facets.options.flatMap((o) => o.values.map((v) => `${o.name}:${v.value}`)).slice(0, 20);
  let price = 1000;
  const kinds = worstKinds(options);

  // A catalog change (as run.ts's page_changed does) makes the next request build the list index again.
  const changed = await changeOnePrice(fixture);
  const firstKind = 'sort=title-asc&priceMax';
  const firstAfterChange = {
    kind: firstKind,
    ms: round((await timed(`${base}${V1}/commerce/products?${kinds[firstKind]!(price++)}`, api)).ms),
  };
  log(`list attack: changed ${changed}; first list request after it ${firstAfterChange.ms} ms`);

  const worst: Record<string, Stats> = {};
  for (const [kind, path] of Object.entries(kinds)) {
    await timed(`${base}${V1}/commerce/products?${path(price++)}`, api); // its search's reads, its order
    const samples: number[] = [];
    const statuses: Record<string, number> = {};
    for (let i = 0; i < 15; i++) {
      const { ms, status } = await timed(`${base}${V1}/commerce/products?${path(price++)}`, api);
      samples.push(ms);
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
    worst[kind] = stats(samples, statuses);
    log(`list attack: ${kind}: p50 ${worst[kind].p50} ms, max ${worst[kind].max} ms ${JSON.stringify(statuses)}`);
  }
  const [worstKind, worstStats] = Object.entries(worst).sort((a, b) => b[1].p50 - a[1].p50)[0]!;

  // The probe: a shopper reading a few product pages, one after the other.
  const handles = fixture.allHandles.slice(0, 8);
  let h = 0;
  const probePage = () => `${base}/products/${handles[h++ % handles.length]}`;
  const shopper = { 'Accept-Encoding': 'identity' };
  for (let i = 0; i < handles.length * 2; i++) await timed(probePage(), shopper); // pages kept
  const idle = await loop(probePage, shopper, performance.now() + seconds * 1000);
  log(`list attack: probe idle p50 ${idle.p50} ms p90 ${idle.p90} ms (${idle.n} pages)`);

  const attackPath = () =>
    `${base}/search?sort=title-asc&priceMax=${price++}.00&${options.map((o) => `option=${encodeURIComponent(o)}`).join('&')}`;
  const attackerHeaders = { 'Accept-Encoding': 'identity' };
  const underAttack = async (connections: number) => {
    const until = performance.now() + seconds * 1000;
    const attackers = sink();
    const attacking = Promise.all(
      Array.from({ length: connections }, () => loop(attackPath, attackerHeaders, until, attackers, '127.0.0.2')),
    );
    const probe = await loop(probePage, shopper, until);
    await attacking;
    return { probe, attacker: stats(attackers.samples, attackers.statuses) };
  };
  const c1 = await underAttack(1);
  log(
    `list attack c=1: probe p50 ${c1.probe.p50} ms p90 ${c1.probe.p90} ms; attacker p50 ${c1.attacker.p50} ms ${JSON.stringify(c1.attacker.statuses)}`,
  );
  const c8 = await underAttack(8);
  log(
    `list attack c=8: probe p50 ${c8.probe.p50} ms p90 ${c8.probe.p90} ms; attacker p50 ${c8.attacker.p50} ms ${JSON.stringify(c8.attacker.statuses)}`,
  );
  return {
    worst,
    worstP50: { kind: worstKind, ms: worstStats.p50 },
    firstAfterChange,
    probe: { idle, attackerC1: c1.probe, attackerC8: c8.probe },
    attacker: { c1: c1.attacker, c8: c8.attacker },
  };
}

async function main(): Promise<void> {
  const { values: flags } = parseArgs({
    options: {
      products: { type: 'string', default: '10000' },
      seconds: { type: 'string', default: '10' },
      port: { type: 'string', default: '3611' },
      // A CPU profile of the server (scripts/bench/profile-summary.ts reads it).
      profile: { type: 'string' },
    },
  });
  const log = (m: string) => console.error(`[list-attack ${new Date().toISOString().slice(11, 19)}] ${m}`);
  const dir = mkdtempSync(join(tmpdir(), 'site-list-attack-'));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  const port = Number(flags.port);
  try {
    log(`seeding ${flags.products} products …`);
    const fixture = await makeFixture(dir, Number(flags.products), `http://127.0.0.1:${port}`, 2);
    const server = await startNextServer({
      label: 'next list-attack',
      port,
      databaseUrl: fixture.url,
      storefrontCredential: fixture.storefront,
      cpuProfileDir: flags.profile,
      env: { STOREFRONT_ORIGIN: `http://127.0.0.1:${port}`, PAGE_RENDER_AHEAD: 'off' },
    });
    try {
      const result = await listAttack(server.base, fixture, fixture.credentials[0]!, Number(flags.seconds), log);
      console.log(JSON.stringify({ listAttack: result }));
    } finally {
      await server.stop();
    }
  } finally {
    await stopAll();
  }
}

if (process.argv[1]?.endsWith('list-attack.ts')) {
  main().then(
    () => process.exit(0),
    async (error: unknown) => {
      console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
      await stopAll();
      process.exit(1);
    },
  );
}
