import autocannon, { type Options, type Result } from 'autocannon';

/** One request the load generator sends; `next()` gives a fresh one for each send. */
export type RequestPlan = { method?: 'GET' | 'POST'; path: string; headers?: Record<string, string>; body?: string };
/**
 * `tally`, when given, names each answer's kind from its headers (a product page: kept or
 * rendered); the measurement counts answers of each kind.
 */
export type Plan = {
  base: string;
  next: () => RequestPlan;
  connections: number;
  tally?: (headers: Headers) => string;
  /** A long run's progress: `heartbeat` every `every` seconds with what it answered so far. */
  watch?: { every: number; heartbeat: (s: { answered: number; errors: number; silentMs: number }) => void };
};
/** An answer's headers, as autocannon hands them over (names as the server spelled them). */
export type Headers = Record<string, string | string[]>;

export type Measured = {
  rps: number;
  p50: number;
  p99: number;
  /** Socket errors, timeouts and every answer outside 2xx. */
  errors: number;
  status5xx: number;
  requests: number;
  statusCodes: Record<string, number>;
  /** Answers of each kind, when the plan names kinds (Plan.tally). */
  tally?: Record<string, number>;
};

function optionsFor(plan: Plan, seconds: number, onHeaders?: (headers: Headers) => void): Options {
  return {
    url: plan.base,
    connections: plan.connections,
    duration: seconds,
    timeout: 20,
    requests: [
      {
        ...(onHeaders
          ? { onResponse: (_status: number, _body: string, _context: Record<string, unknown>, headers: Headers) => onHeaders(headers) }
          : {}),
        setupRequest: (request) => {
          const r = plan.next();
          return {
            ...request,
            method: r.method ?? 'GET',
            path: r.path,
            headers: { ...request.headers, ...r.headers },
            body: r.body,
          };
        },
      },
    ],
  };
}

/**
 * What one autocannon run answered after its first `skipSeconds`: every response's latency
 * (autocannon's histogram rounds to whole ms), status codes and errors, counted by when
 * they arrived.
 */
type Sample = {
  statusCodes: Record<string, number>;
  tally: Record<string, number> | undefined;
  errors: number;
  status5xx: number;
  latencies: number[];
  seconds: number;
  window: [number, number];
};

/**
 * `stallMs`: how long a run may be silent (no answer, no error, no timeout) before it counts
 * as stuck. A request that never ends is a timeout after `timeout` (20 s) and counts;
 * silence means the load generator itself stopped sending. `overdueMs`: after its planned
 * end a run is stopped; after this much more, it fails.
 */
export const RUN_BOUNDS = { stallMs: 60_000, overdueMs: 30_000 };

/** What `bounded` needs of an autocannon run. */
type Run = PromiseLike<Result> & { stop(): void; on(event: string, listener: (...args: unknown[]) => void): void };

/**
 * An autocannon run that cannot hang the benchmark: it is stopped when it falls silent for
 * `stallMs` or runs `overdueMs` past `plannedSeconds`, and fails with what it answered so
 * far (at once if it then finishes, `overdueMs` later if it does not). `heartbeat`, when
 * given, is called every `every` seconds with the answers so far.
 */
export function bounded(
  instance: Run,
  plannedSeconds: number,
  watch?: { every: number; heartbeat: (s: { answered: number; errors: number; silentMs: number }) => void },
  { stallMs, overdueMs } = RUN_BOUNDS,
): Promise<Result> {
  const started = Date.now();
  let answered = 0;
  let errors = 0;
  let lastActivity = started;
  let why: string | null = null;
  let stoppedAt: number | undefined;
  instance.on('response', () => {
    answered += 1;
    lastActivity = Date.now();
  });
  instance.on('reqError', () => {
    errors += 1;
    lastActivity = Date.now();
  });
  const state = () =>
    `${answered} answers and ${errors} errors in ${Math.round((Date.now() - started) / 1000)} s, the last ${Math.round((Date.now() - lastActivity) / 1000)} s ago`;
  return new Promise<Result>((resolve, reject) => {
    let beats = 0;
    const check = setInterval(() => {
      const now = Date.now();
      if (watch && now - started >= (beats + 1) * watch.every * 1000) {
        beats += 1;
        watch.heartbeat({ answered, errors, silentMs: now - lastActivity });
      }
      if (why === null && now - lastActivity > stallMs) why = `silent for ${stallMs / 1000} s`;
      if (why === null && now - started > plannedSeconds * 1000 + overdueMs)
        why = `${overdueMs / 1000} s past its planned ${plannedSeconds} s`;
      if (why === null) return;
      stoppedAt ??= now;
      if (now - stoppedAt > overdueMs) {
        clearInterval(check);
        reject(new Error(`the load generator did not finish (${why}): ${state()}`));
        return;
      }
      instance.stop();
    }, 1000);
    instance.then(
      (result) => {
        clearInterval(check);
        if (why !== null) reject(new Error(`the load generator was stopped (${why}): ${state()}`));
        else resolve(result);
      },
      (error: unknown) => {
        clearInterval(check);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** With `amount`, the run ends after that many answers, or after `seconds` if they take longer. */
async function sample(plan: Plan, seconds: number, skipSeconds = 0, amount?: number): Promise<Sample> {
  const latencies: number[] = [];
  const statusCodes: Record<string, number> = {};
  let errors = 0;
  let status5xx = 0;
  const start = Date.now();
  const from = start + skipSeconds * 1000;
  const tally = plan.tally ? ({} as Record<string, number>) : undefined;
  const onHeaders =
    plan.tally &&
    ((headers: Headers) => {
      if (Date.now() < from) return;
      const kind = plan.tally!(headers);
      tally![kind] = (tally![kind] ?? 0) + 1;
    });
  const instance = autocannon({ ...optionsFor(plan, skipSeconds + seconds, onHeaders), ...(amount ? { amount } : {}) });
  const cap = amount ? setTimeout(() => instance.stop(), seconds * 1000) : undefined;
  instance.on('response', (...args: unknown[]) => {
    if (Date.now() < from) return;
    const status = args[1] as number;
    statusCodes[status] = (statusCodes[status] ?? 0) + 1;
    if (status < 200 || status > 299) errors += 1;
    if (status >= 500) status5xx += 1;
    latencies.push(args[3] as number);
  });
  // socket errors and timeouts (autocannon reports both here)
  instance.on('reqError', () => {
    if (Date.now() >= from) errors += 1;
  });
  try {
    const result = await bounded(instance, skipSeconds + seconds, plan.watch);
    return { statusCodes, tally, errors, status5xx, latencies, seconds: result.duration - skipSeconds, window: [from, Date.now()] };
  } finally {
    clearTimeout(cap);
  }
}

function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0;
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! * 100) / 100;
}

/** Several samples of the same load as one measurement. */
function combine(samples: Sample[]): Measured & { window: [number, number] } {
  const statusCodes: Record<string, number> = {};
  let errors = 0;
  let status5xx = 0;
  let seconds = 0;
  const latencies: number[] = [];
  let tally: Record<string, number> | undefined;
  for (const { statusCodes: codes, tally: kinds, errors: e, status5xx: s5, latencies: l, seconds: s } of samples) {
    for (const [code, count] of Object.entries(codes)) statusCodes[code] = (statusCodes[code] ?? 0) + count;
    if (kinds) {
      tally ??= {};
      for (const [kind, count] of Object.entries(kinds)) tally[kind] = (tally[kind] ?? 0) + count;
    }
    errors += e;
    status5xx += s5;
    seconds += s;
    // not push(...l): a fast server (the floor) answers more responses than a call takes arguments
    for (const latency of l) latencies.push(latency);
  }
  latencies.sort((a, b) => a - b);
  const requests = Object.values(statusCodes).reduce((a, b) => a + b, 0);
  return {
    rps: seconds > 0 ? Math.round((requests / seconds) * 10) / 10 : 0,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    errors,
    status5xx,
    requests,
    statusCodes,
    ...(tally ? { tally } : {}),
    window: [samples[0]!.window[0], samples.at(-1)!.window[1]],
  };
}

/**
 * Runs `plan` for `warmSeconds` and then `seconds` more, and measures only what answered in
 * the latter: one run on the same connections, so the measured window does not start with
 * new ones. (A busy Node server accepts one new connection per turn of its event loop: 32
 * opened at once were accepted over 0.5–1 s, and the first request on the last of them
 * waited that long. Those waits are the start of a run, not the service's steady state.)
 */
export async function measure(plan: Plan, seconds: number, warmSeconds: number): Promise<Measured & { window: [number, number] }> {
  return combine([await sample(plan, seconds, warmSeconds)]);
}

const DRAIN_MS = 300;

/**
 * One pass over a catalog: `count` requests of the plan (a rotation over `count` paths asks
 * for each once), at the plan's connections, cut off after `maxSeconds`. `requests` says how
 * much of the pass was done.
 */
export async function pass(plan: Plan, count: number, maxSeconds: number): Promise<Measured & { window: [number, number] }> {
  const done = combine([await sample(plan, maxSeconds, 0, count)]);
  await new Promise((r) => setTimeout(r, DRAIN_MS));
  return done;
}

export type Interleaved = {
  operation: Measured & { window: [number, number] };
  ceiling: Measured & { window: [number, number] };
  /** Each operation slice over the mean of the ceiling slices either side of it. */
  ratios: number[];
  medianRatio: number;
};

/**
 * An operation and the ceiling in alternating short slices (C O C O … C), so both see the
 * same machine: on a shared box the available CPU drifts within seconds, and a ratio of
 * two measurements taken a minute apart measures the drift. The median slice ratio is
 * the operation's ratio to the ceiling; its req/s and latencies pool all its slices.
 */
export async function measureInterleaved(
  plan: Plan,
  ceiling: Plan,
  slices: number,
  sliceSeconds: number,
  warmSeconds: number,
): Promise<Interleaved> {
  if (warmSeconds > 0) {
    await bounded(autocannon(optionsFor(ceiling, 1)), 1);
    await bounded(autocannon(optionsFor(plan, warmSeconds)), warmSeconds);
  }
  // autocannon stops sending at the end of a slice with up to `connections` requests still
  // in the server; let them drain so the next slice's first answers do not wait behind them
  const drained = async (s: Promise<Sample>) => {
    const done = await s;
    await new Promise((r) => setTimeout(r, DRAIN_MS));
    return done;
  };
  const ops: Sample[] = [];
  const ceilings: Sample[] = [await drained(sample(ceiling, sliceSeconds))];
  for (let i = 0; i < slices; i += 1) {
    ops.push(await drained(sample(plan, sliceSeconds)));
    ceilings.push(await drained(sample(ceiling, sliceSeconds)));
  }
  const rate = (s: Sample) => Object.values(s.statusCodes).reduce((a, count) => a + count, 0) / s.seconds;
  const ratios = ops.map((op, i) => {
    const around = (rate(ceilings[i]!) + rate(ceilings[i + 1]!)) / 2;
    return around > 0 ? Math.round((rate(op) / around) * 100) / 100 : 0;
  });
  const sorted = [...ratios].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  const medianRatio = sorted.length % 2 ? sorted[Math.floor(mid)]! : Math.round(((sorted[mid - 1]! + sorted[mid]!) / 2) * 100) / 100;
  const reference = combine(ceilings);
  // A reference that answers anything but 2xx (a path its app has no route for) is not the
  // route the ratio claims: stop rather than print a ratio to a 404.
  const wrong = Object.keys(reference.statusCodes).filter((code) => Number(code) < 200 || Number(code) > 299);
  if (wrong.length > 0) throw new Error(`the reference answered ${wrong.join(', ')} (${ceiling.next().path.split('?')[0]})`);
  return { operation: combine(ops), ceiling: reference, ratios, medianRatio };
}

/** Cycles through a list, one item per call. */
export function rotate<T>(items: readonly T[]): () => T {
  if (items.length === 0) throw new Error('nothing to rotate through');
  let i = 0;
  return () => items[i++ % items.length]!;
}

/**
 * c=1 latency with sub-millisecond resolution (autocannon's histogram keeps whole
 * milliseconds): one keep-alive connection, one request at a time, for `seconds`.
 */
export async function sequentialLatency(
  plan: Plan,
  seconds: number,
  warmSeconds: number,
): Promise<Measured & { window: [number, number] }> {
  const { Agent, request } = await import('node:http');
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const url = new URL(plan.base);
  const once = (r: RequestPlan) =>
    new Promise<number>((resolve, reject) => {
      const req = request(
        { agent, host: url.hostname, port: url.port, method: r.method ?? 'GET', path: r.path, headers: r.headers },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.setTimeout(20_000, () => req.destroy(new Error('timeout')));
      req.end(r.body);
    });
  const run = async (ms: number, record: boolean) => {
    const times: number[] = [];
    const codes: Record<string, number> = {};
    let errors = 0;
    const end = Date.now() + ms;
    while (Date.now() < end) {
      const started = process.hrtime.bigint();
      let status = 0;
      try {
        status = await once(plan.next());
      } catch {
        errors += 1;
      }
      if (!record) continue;
      times.push(Number(process.hrtime.bigint() - started) / 1e6);
      codes[status] = (codes[status] ?? 0) + 1;
      if (status < 200 || status > 299) errors += 1;
    }
    return { times, codes, errors };
  };
  try {
    await run(warmSeconds * 1000, false);
    const start = Date.now();
    const { times, codes, errors } = await run(seconds * 1000, true);
    const window: [number, number] = [start, Date.now()];
    times.sort((a, b) => a - b);
    const at = (q: number) => Math.round((times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0) * 100) / 100;
    return {
      rps: Math.round((times.length / ((window[1] - window[0]) / 1000)) * 10) / 10,
      p50: at(0.5),
      p99: at(0.99),
      errors,
      status5xx: Object.entries(codes)
        .filter(([c]) => c.startsWith('5'))
        .reduce((a, [, n]) => a + n, 0),
      requests: times.length,
      statusCodes: codes,
      window,
    };
  } finally {
    agent.destroy();
  }
}

/**
 * Answers per second in consecutive buckets of a run from its first request: how a fresh
 * server warms up (JIT, statement caches, memos) under a steady load.
 */
export async function curve(plan: Plan, seconds: number, bucketSeconds: number): Promise<{ rps: number[]; errors: number }> {
  const buckets = new Array<number>(Math.ceil(seconds / bucketSeconds)).fill(0);
  let errors = 0;
  const start = Date.now();
  const instance = autocannon(optionsFor(plan, seconds));
  instance.on('response', (...args: unknown[]) => {
    const status = args[1] as number;
    if (status < 200 || status > 299) errors += 1;
    const i = Math.floor((Date.now() - start) / (bucketSeconds * 1000));
    if (i < buckets.length) buckets[i]! += 1;
  });
  instance.on('reqError', () => (errors += 1));
  await bounded(instance, seconds);
  return { rps: buckets.map((n) => Math.round(n / bucketSeconds)), errors };
}
