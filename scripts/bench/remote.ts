// npx tsx --conditions=react-server scripts/bench/remote.ts [--products=1000] [--latencies=0,20] [--idle-seconds=30]
//
// Issue #43: round trips to a remote libSQL database. Seeds a catalog into a file, serves it
// with the libSQL test server (e2e/support/libsql-server.ts: Hrana over HTTP, a request
// counter, a latency per request) and starts `next start` on its URL from the build in
// NEXT_DIST_DIR (default .next-bench). For each latency, each action runs alone (JOBS=cron:
// no background work meanwhile) on fresh handles: requests the server counted during it, and
// its p50 wall time. Then an instance as `npm start` runs it (timers on) sits idle: requests
// per 5 s. Prints the table and one JSON line {"remote": …}.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startLibsqlTestServer, type LibsqlTestServer } from '../../e2e/support/libsql-server';
import { makeFixture, type Fixture } from './fixture';
import { stopAll } from './processes';
import { startNextServer, type Server } from './server';

const V1 = '/site/v1';
// Ports of its own (--port: the app's, the database's is the next one up).
let PORT = 3611;
let DB_PORT = 3612;
/** --trace: print the statements of each request of each action's first run, and of any run over its budget. */
let TRACE = false;

/** `inSequence`: the budget is of requests in sequence (those that go together count once), not of all. */
type Action = { name: string; budget: number; inSequence?: true; run: (i: number) => Promise<void> };
export type RemoteRow = {
  action: string;
  latencyMs: number;
  requests: number;
  /** The most of any run. */
  maxRequests: number;
  /** Of those, the most sent one after another's answer (LibsqlTestServer.sequence). */
  inSequence: number;
  budget: number;
  budgetOf: 'requests' | 'in sequence';
  p50Ms: number;
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

async function ok(res: Response, want: number, what: string) {
  const text = await res.text();
  if (res.status !== want) throw new Error(`${what}: ${res.status} ${text.slice(0, 200)}`);
}

function actions(base: string, fixture: Fixture, headers: Record<string, string>, round: number): Action[] {
  const extended = { Authorization: `Bearer ${fixture.storefront}` };
  // Each latency's round takes handles no earlier round has read, so a miss is a miss.
  const handle = (i: number, offset: number) => fixture.allHandles[(offset + round * 50 + i * 7) % fixture.allHandles.length]!;
  const variant = (i: number) => fixture.variantIds[i % fixture.variantIds.length]!;
  const product = (h: string) => fetch(`${base}${V1}/commerce/products/${h}`, { headers });
  return [
    // Each run first reads another product, so what is measured is the read itself, not a cold process.
    {
      name: 'API read, warm',
      budget: 1,
      run: async (i) => {
        await ok(await product(handle(i, 0)), 200, 'warm-up');
      },
    },
    {
      name: 'API read, miss',
      budget: 2,
      run: async (i) => {
        await ok(await product(handle(i, 1000)), 200, 'miss');
      },
    },
    {
      name: 'checkout creation',
      budget: 3,
      run: async (i) =>
        ok(
          await fetch(`${base}${V1}/commerce/checkout-sessions`, {
            method: 'POST',
            headers: { ...headers, 'Content-Type': 'application/json', 'Idempotency-Key': `remote-bench-${Date.now()}-${i}` },
            body: JSON.stringify({ lines: [{ variantId: variant(i), quantity: 1 }] }),
          }),
          201,
          'checkout',
        ),
    },
    {
      name: 'signup (newsletter)',
      budget: 2,
      run: async (i) =>
        ok(
          await fetch(`${base}${V1}/newsletter/subscriptions`, {
            method: 'POST',
            headers: { ...headers, 'Content-Type': 'application/json', 'Site-Buyer-IP': `198.51.100.${i % 250}` },
            body: JSON.stringify({
              email: `remote.${Date.now()}.${i}@example.se`,
              consent: { granted: true, text: 'Yes, send me the newsletter.', version: '2026-01' },
              source: 'footer',
            }),
          }),
          202,
          'signup',
        ),
    },
    {
      name: 'product page, kept',
      budget: 1,
      run: async (i) => ok(await fetch(`${base}/products/${handle(i, 2000)}`, { headers: extended }), 200, 'kept page'),
    },
    {
      name: 'product page, rendered',
      budget: 4,
      inSequence: true,
      run: async (i) => ok(await fetch(`${base}/products/${handle(i, 3000)}`, { headers: extended }), 200, 'page'),
    },
  ];
}

/**
 * Waits until the database has had no request for 100 ms (at most 3 s): what a warm-up set
 * going in the background (the API health check a page view starts, at most one a second
 * per instance) is not counted against the action measured next.
 */
async function quiet(db: LibsqlTestServer): Promise<void> {
  const deadline = Date.now() + 3000;
  let seen = db.requests();
  let since = Date.now();
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 20));
    const now = db.requests();
    if (now !== seen || db.held() > 0) [seen, since] = [now, Date.now()];
    else if (Date.now() - since >= 100) return;
  }
}

/** Runs each action `runs` times alone, counting the server's requests for each run. */
async function measure(
  base: string,
  db: LibsqlTestServer,
  fixture: Fixture,
  latencyMs: number,
  runs: number,
  round: number,
): Promise<RemoteRow[]> {
  const headers = { Authorization: `Bearer ${fixture.credentials[0]!}` };
  const list = actions(base, fixture, headers, round);
  const rows: RemoteRow[] = [];
  for (const action of list) {
    const counts: number[] = [];
    const sequences: number[] = [];
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      // Warm what each action assumes warm: the product read twice, the kept page viewed once.
      if (action.name === 'API read, warm') await action.run(i);
      if (action.name === 'product page, kept') await action.run(i);
      if (action.name === 'API read, miss')
        await ok(await fetch(`${base}${V1}/commerce/products/${fixture.allHandles[0]}`, { headers }), 200, 'warm-up');
      db.setLatency(latencyMs);
      await quiet(db);
      const before = db.requests();
      const sequence = db.sequence();
      const recording = TRACE ? db.record() : null;
      const started = performance.now();
      await action.run(i);
      times.push(performance.now() - started);
      counts.push(db.requests() - before);
      sequences.push(sequence.stop());
      recording?.stop();
      // The first run of each action, and any other that went over its budget.
      if (recording && (i === 0 || recording.requests.length > action.budget)) {
        console.log(`${action.name} at ${latencyMs} ms, run ${i + 1}:`);
        for (const [n, request] of recording.requests.entries())
          console.log(`  ${n + 1}. ${request.map((q) => q.replace(/\s+/g, ' ').slice(0, 160)).join('\n     ') || '(probe)'}`);
      }
      db.setLatency(0);
    }
    rows.push({
      action: action.name,
      latencyMs,
      requests: median(counts),
      maxRequests: Math.max(...counts),
      inSequence: median(sequences),
      budget: action.budget,
      budgetOf: action.inSequence ? 'in sequence' : 'requests',
      p50Ms: Math.round(median(times)),
    });
  }
  return rows;
}

export async function remoteRoundTrips(options: {
  products: number;
  latencies: number[];
  idleSeconds: number;
  runs: number;
  log: (line: string) => void;
}) {
  const dir = mkdtempSync(join(tmpdir(), 'sd-bench-remote-'));
  const fixture = await makeFixture(dir, options.products, `http://127.0.0.1:${PORT}`, 2);
  const db = await startLibsqlTestServer({ path: fixture.url.slice('file:'.length), port: DB_PORT });
  let server: Server | null = null;
  try {
    const rows: RemoteRow[] = [];
    server = await startNextServer({
      label: 'remote',
      port: PORT,
      databaseUrl: db.url,
      storefrontCredential: fixture.storefront,
      env: { JOBS: 'cron', PAGE_RENDER_AHEAD: 'off' },
    });
    for (const [round, latency] of options.latencies.entries()) {
      options.log(`remote: actions at ${latency} ms a round trip`);
      rows.push(...(await measure(server.base, db, fixture, latency, options.runs, round)));
    }
    await server.stop();
    // As `npm start` runs it: timers on (the outbox, rendering ahead, sweeps), nobody asking.
    server = await startNextServer({
      label: 'remote-idle',
      port: PORT,
      databaseUrl: db.url,
      storefrontCredential: fixture.storefront,
      env: { STOREFRONT_ORIGIN: `http://127.0.0.1:${PORT}` },
    });
    // Its start is not idleness: it renders every product page ahead first. Count once it has.
    const started = Date.now();
    while (!/product pages ahead of shoppers: \d+ rendered/.test(server.managed.output())) {
      if (Date.now() - started > 600_000) throw new Error('rendering ahead did not finish in 10 minutes');
      await new Promise((r) => setTimeout(r, 1000));
    }
    await new Promise((r) => setTimeout(r, 5_000));
    const before = db.requests();
    await new Promise((r) => setTimeout(r, options.idleSeconds * 1000));
    const idlePer5s = Math.round(((db.requests() - before) / options.idleSeconds) * 5 * 100) / 100;
    return { rows, idlePer5s, idleBudgetPer5s: 1 };
  } finally {
    await server?.stop();
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function printRemote(result: Awaited<ReturnType<typeof remoteRoundTrips>>): void {
  console.log('\n| action | latency | round trips (median) | most | in sequence | budget | p50 |\n|---|---:|---:|---:|---:|---:|---:|');
  for (const r of result.rows) {
    // At 0 ms a request not awaited (the kept page's version probe) can be answered before
    // the one beside it ends, and then counts as one after another: an order is only a
    // sequence where round trips take time, so that budget is judged at a latency above 0.
    const unjudged = r.budgetOf === 'in sequence' && r.latencyMs === 0;
    const held = (r.budgetOf === 'in sequence' ? r.inSequence : r.requests) <= r.budget;
    const budget = `≤ ${r.budget}${r.budgetOf === 'in sequence' ? ' in sequence' : ''}${unjudged ? ' (judged above 0 ms)' : held ? '' : ' ✗'}`;
    console.log(`| ${r.action} | ${r.latencyMs} ms | ${r.requests} | ${r.maxRequests} | ${r.inSequence} | ${budget} | ${r.p50Ms} ms |`);
  }
  console.log(
    `| idle instance (timers on) | – | ${result.idlePer5s} per 5 s | – | – | ≤ ${result.idleBudgetPer5s}${result.idlePer5s <= result.idleBudgetPer5s ? '' : ' ✗'} | – |`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      products: { type: 'string', default: '1000' },
      latencies: { type: 'string', default: '0,20' },
      'idle-seconds': { type: 'string', default: '30' },
      runs: { type: 'string', default: '5' },
      port: { type: 'string', default: '3611' },
      trace: { type: 'boolean', default: false },
    },
  });
  PORT = Number(values.port);
  DB_PORT = PORT + 1;
  TRACE = values.trace!;
  try {
    const result = await remoteRoundTrips({
      products: Number(values.products),
      latencies: values.latencies!.split(',').map(Number),
      idleSeconds: Number(values['idle-seconds']),
      runs: Number(values.runs),
      log: (line) => console.log(line),
    });
    printRemote(result);
    console.log(JSON.stringify({ remote: result }));
  } finally {
    await stopAll();
  }
}
