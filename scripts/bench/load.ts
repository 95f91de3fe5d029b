import autocannon, { type Options, type Result } from 'autocannon';

/** One request the load generator sends; `next()` gives a fresh one for each send. */
export type RequestPlan = { method?: 'GET' | 'POST'; path: string; headers?: Record<string, string>; body?: string };
export type Plan = { base: string; next: () => RequestPlan; connections: number };

export type Measured = {
  rps: number;
  p50: number;
  p99: number;
  /** Socket errors, timeouts and every answer outside 2xx. */
  errors: number;
  status5xx: number;
  requests: number;
  statusCodes: Record<string, number>;
};

function optionsFor(plan: Plan, seconds: number): Options {
  return {
    url: plan.base,
    connections: plan.connections,
    duration: seconds,
    timeout: 20,
    requests: [
      {
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

function summarise(result: Result): Measured {
  const statusCodes: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = Number(count);
  const requests = Object.values(statusCodes).reduce((a, b) => a + b, 0);
  return {
    rps: Math.round((requests / result.duration) * 10) / 10,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    status5xx: result['5xx'],
    requests,
    statusCodes,
  };
}

/** Runs `plan` for `seconds` (after `warmSeconds` of the same load, not measured). */
export async function measure(plan: Plan, seconds: number, warmSeconds: number): Promise<Measured & { window: [number, number] }> {
  if (warmSeconds > 0) await autocannon(optionsFor(plan, warmSeconds));
  const start = Date.now();
  const result = await autocannon(optionsFor(plan, seconds));
  return { ...summarise(result), window: [start, Date.now()] };
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
export async function sequentialLatency(plan: Plan, seconds: number, warmSeconds: number): Promise<Measured & { window: [number, number] }> {
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
      status5xx: Object.entries(codes).filter(([c]) => c.startsWith('5')).reduce((a, [, n]) => a + n, 0),
      requests: times.length,
      statusCodes: codes,
      window,
    };
  } finally {
    agent.destroy();
  }
}
