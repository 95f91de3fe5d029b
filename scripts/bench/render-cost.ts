// npx tsx --conditions=react-server scripts/bench/render-cost.ts [--products=600] [--pages=60] [--rounds=4] [--connections=2] [--port=3631] [--profile=<dir>] [--bare-bytes=<n>]
//
// Issue #44 point 3: what one render of a product page costs, beside a bare Next page of about
// the same bytes rendered on its first request (the reference app's `/rendered/<name>`, the
// `page_render` row's reference). CPU time, not req/s: the server process's user + system
// time (/proc/<pid>/stat) over `pages` renders, divided by them — steadier than a rate on a
// shared host. The shop renders pages in the default market's other language (en-SE, which
// nothing rendered ahead), each handle once, so every view is a render (and is kept, as in
// `page_render`); the reference renders names it has not seen. The two alternate, `rounds`
// times each. Builds: the shop's in NEXT_DIST_DIR (default .next-bench), the reference's as
// `npm run bench` builds it (built here when missing). With --profile, both servers write a V8
// CPU profile (<dir>/shop, <dir>/bare) and the script prints, kind of code by kind, where the
// shop's extra CPU a render goes over the measured rounds (profile-kinds.ts). With --bare-bytes,
// the bare page is sized to that many bytes instead of the shop's page: builds with parts of the
// page taken out are then all measured against the same bare render (scripts/bench/HISTORY.md,
// 2026-12-01).
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { makeFixture } from './fixture';
import { compareKinds } from './profile-kinds';
import { stopAll } from './processes';
import { buildReference, savePage, startReference } from './reference';
import { ROOT, START_NODE_OPTIONS, startNextServer, type Server } from './server';

const { values } = parseArgs({
  options: {
    products: { type: 'string', default: '600' },
    pages: { type: 'string', default: '60' },
    rounds: { type: 'string', default: '4' },
    connections: { type: 'string', default: '2' },
    port: { type: 'string', default: '3631' },
    /** V8 CPU profiles of both servers, written under this folder when they stop. */
    profile: { type: 'string' },
    /** The bare page's size in bytes (default: the shop's first page's). */
    'bare-bytes': { type: 'string' },
  },
});
const PAGES = Number(values.pages);
const ROUNDS = Number(values.rounds);
const CONNECTIONS = Number(values.connections);
const PORT = Number(values.port);
const TICK_MS = 10; // USER_HZ is 100 on Linux

function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime are fields 14 and 15 of the whole line, 12 and 13 after the name
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

async function fetchAll(urls: string[], headers: Record<string, string>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < urls.length) {
      const url = urls[next++]!;
      const res = await fetch(url, { headers });
      const body = await res.text();
      if (res.status !== 200) throw new Error(`${url}: ${res.status} ${body.slice(0, 200)}`);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
}

/** CPU milliseconds per page of `urls`, on the server's process. */
async function perRender(server: Server, urls: string[], headers: Record<string, string> = {}): Promise<number> {
  const before = cpuMs(server.managed.pid);
  await fetchAll(urls, headers);
  return (cpuMs(server.managed.pid) - before) / urls.length;
}

// The reference keeps what it renders in its build folder, across runs: names no run used.
const run = Date.now().toString(36);

/** CLOCK_MONOTONIC in µs: the clock V8 stamps its profile samples with. */
const nowUs = () => Number(process.hrtime.bigint() / 1000n);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

const dir = mkdtempSync(join(tmpdir(), 'sd-render-cost-'));
try {
  const fixture = await makeFixture(dir, Number(values.products), `http://127.0.0.1:${PORT}`, 1);
  if (fixture.allHandles.length < PAGES * (ROUNDS + 1)) throw new Error('too few products for that many pages and rounds');
  const shop = await startNextServer({
    label: 'render-cost',
    port: PORT,
    databaseUrl: fixture.url,
    storefrontCredential: fixture.storefront,
    cpuProfileDir: values.profile && join(values.profile, 'shop'),
    nodeOptions: START_NODE_OPTIONS,
    env: { PAGE_RENDER_AHEAD: 'off', JOBS: 'cron' },
  });
  const cookie = { Cookie: 'market=se; locale=en-SE' };
  const pageOf = (h: string) => `${shop.base}/products/${h}`;
  const first = await fetch(pageOf(fixture.allHandles[0]!), { headers: cookie });
  const html = await first.text();
  if (!existsSync(join(ROOT, 'scripts', 'bench', 'reference-app', '.next-reference'))) await buildReference();
  const bare = await startReference(PORT + 1, savePage(dir, html.padEnd(Number(values['bare-bytes'] ?? 0))), {
    cpuProfileDir: values.profile && join(values.profile, 'bare'),
  });
  const measured = { fromUs: 0, toUs: 0, shopMs: NaN, bareMs: NaN };
  try {
    console.log(`page ${html.length} bytes; ${PAGES} renders a round, c=${CONNECTIONS}, ${ROUNDS} rounds`);
    // Warm both (JIT, first-render work): a round's worth each, not measured.
    const handles = fixture.allHandles.slice(1);
    await fetchAll(handles.slice(0, PAGES).map(pageOf), cookie);
    await fetchAll(
      Array.from({ length: PAGES }, (_, i) => `${bare.base}/rendered/${run}-warm-${i}`),
      {},
    );
    const shopMs: number[] = [];
    const bareMs: number[] = [];
    measured.fromUs = nowUs();
    for (let round = 1; round <= ROUNDS; round++) {
      const urls = handles.slice(round * PAGES, (round + 1) * PAGES).map(pageOf);
      shopMs.push(await perRender(shop, urls, cookie));
      bareMs.push(
        await perRender(
          bare,
          Array.from({ length: PAGES }, (_, i) => `${bare.base}/rendered/${run}-r${round}-${i}`),
        ),
      );
      console.log(
        `round ${round}: shop ${shopMs.at(-1)!.toFixed(1)} ms CPU a render, bare ${bareMs.at(-1)!.toFixed(1)} ms, ratio ${(bareMs.at(-1)! / shopMs.at(-1)!).toFixed(2)}`,
      );
    }
    measured.toUs = nowUs();
    const result = { shopMs: median(shopMs), bareMs: median(bareMs), ratio: median(bareMs) / median(shopMs) };
    Object.assign(measured, { shopMs: result.shopMs, bareMs: result.bareMs });
    console.log(
      `median: shop ${result.shopMs.toFixed(1)} ms, bare ${result.bareMs.toFixed(1)} ms CPU a render; bare/shop ${result.ratio.toFixed(2)}`,
    );
    console.log(JSON.stringify({ renderCost: { ...result, shop: shopMs, bare: bareMs } }));
  } finally {
    await bare.stop();
    await shop.stop();
  }
  if (values.profile) {
    // The main thread's profile: CPU.<date>.<time>.<pid>.<thread>.<n>.cpuprofile, thread 0.
    const profileIn = (sub: string) =>
      join(
        values.profile!,
        sub,
        readdirSync(join(values.profile!, sub)).find((f) => /\.\d+\.0\.\d+\.cpuprofile$/.test(f))!,
      );
    console.log(`\nwhere a render's CPU goes, the measured rounds (${values.profile}):`);
    console.log(
      compareKinds(
        { label: 'shop', file: profileIn('shop'), perItemMs: measured.shopMs },
        { label: 'bare', file: profileIn('bare'), perItemMs: measured.bareMs },
        measured,
      ),
    );
  }
} finally {
  await stopAll();
  rmSync(dir, { recursive: true, force: true });
}
