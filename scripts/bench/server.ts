import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fetchWithin, RssSampler, startProcess, stopProcess, waitForHttp, type Managed } from './processes';

export const ROOT = process.cwd();
export const DIST_DIR = process.env.NEXT_DIST_DIR || '.next-bench';
const NEXT_BIN = join(ROOT, 'node_modules', 'next', 'dist', 'bin', 'next');

export type Server = { label: string; base: string; managed: Managed; rss: RssSampler; stop: () => Promise<void> };

/**
 * glibc's malloc arenas for the server, as `npm start` sets them (README, Performance): at
 * most two, instead of up to eight per core. Measured in 60-second mixed runs after the
 * reads and pages (four runs each): RSS at the end 273–285 MB, against 286–299 with the
 * default. MALLOC_ARENA_MAX in the benchmark's own environment wins.
 */
export const SERVER_MALLOC_ARENA_MAX = process.env.MALLOC_ARENA_MAX ?? '2';

/** The V8 options `npm start` runs the server with (package.json), so a bench measures what shops run. */
export const START_NODE_OPTIONS: string[] = /\bnode ((?:--\S+ )+)node_modules\/next\//
  .exec((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start)![1]!
  .trim()
  .split(' ');

/**
 * The production build, in its own dist dir (so it never disturbs anyone's .next). The
 * outbox drain is off: the signup scenario queues thousands of confirmation mails, and
 * sending them (as .eml files here) is not what the benchmark measures.
 */
export function buildEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'production',
    NEXT_DIST_DIR: DIST_DIR,
    BENCH_CEILING: '1',
    NEXT_TELEMETRY_DISABLED: '1',
    OUTBOX_DRAIN: 'off',
  };
}

export async function startNextServer(options: {
  label: string;
  port: number;
  databaseUrl: string;
  storefrontCredential: string;
  cpuProfileDir?: string;
  /** V8 options for the server process, e.g. --max-old-space-size=256. */
  nodeOptions?: string[];
  /** More of the server's settings (STOREFRONT_ORIGIN, PAGE_RENDER_AHEAD). */
  env?: Record<string, string>;
  /** A command the server runs under (e.g. valgrind and its options), and how long it may then take to answer. */
  launcher?: { command: string[]; readyTimeoutMs: number };
}): Promise<Server> {
  const base = `http://127.0.0.1:${options.port}`;
  // --expose-gc only lets /bench-ceiling?memory=1 measure the live heap; nothing else calls gc().
  const nodeArgs = [
    '--expose-gc',
    ...(options.nodeOptions ?? []),
    ...(options.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`] : []),
  ];
  const launcher = options.launcher?.command ?? [];
  const managed = startProcess(
    options.label,
    launcher[0] ?? process.execPath,
    [
      ...launcher.slice(1),
      ...(launcher.length ? [process.execPath] : []),
      ...nodeArgs,
      NEXT_BIN,
      'start',
      '-p',
      String(options.port),
      '-H',
      '127.0.0.1',
    ],
    {
      ...buildEnv(),
      MALLOC_ARENA_MAX: SERVER_MALLOC_ARENA_MAX,
      PORT: String(options.port),
      DATABASE_URL: options.databaseUrl,
      SITE_API_CREDENTIAL: options.storefrontCredential,
      // The shop calls its API in-process, as deployed; BENCH_SITE_API=http measures the loopback way.
      ...(process.env.BENCH_SITE_API === 'http' ? { SITE_API_BASE_URL: base } : {}),
      ...options.env,
    },
  );
  const rss = new RssSampler(managed.pid);
  try {
    await waitForHttp(`${base}/site/v1/openapi.json`, managed, options.launcher?.readyTimeoutMs);
  } catch (error) {
    rss.stop();
    await stopProcess(managed);
    throw error;
  }
  return {
    label: options.label,
    base,
    managed,
    rss,
    stop: async () => {
      rss.stop();
      // SIGINT lets node write its --cpu-prof file; SIGKILL follows if it lingers.
      if (options.cpuProfileDir) process.kill(managed.pid, 'SIGINT');
      await stopProcess(managed, 10_000);
    },
  };
}

export async function startFloorServer(port: number, bytes: number): Promise<Server> {
  const base = `http://127.0.0.1:${port}`;
  const managed = startProcess(
    'floor',
    process.execPath,
    [join(ROOT, 'scripts', 'bench', 'floor-server.mjs'), String(port), String(bytes)],
    { ...process.env },
  );
  const rss = new RssSampler(managed.pid);
  await waitForHttp(base, managed, 15_000);
  return {
    label: 'floor',
    base,
    managed,
    rss,
    stop: async () => {
      rss.stop();
      await stopProcess(managed);
    },
  };
}

export type Memory = { rss: number; heapUsed: number; heapTotal: number; external: number; arrayBuffers: number };

/** The server's memory after a full GC (MB): live heap, as opposed to RSS V8 keeps around. */
export function liveMemoryMb(server: Server): Promise<Memory | null> {
  return memoryMbAt(`${server.base}/bench-ceiling?memory=1`);
}

/** A process.memoryUsage() a server answers at `url`, in MB; null when it does not answer. */
export async function memoryMbAt(url: string): Promise<Memory | null> {
  try {
    const res = await fetchWithin(url, 10_000);
    if (!res.ok) return null;
    const m = JSON.parse(res.body) as Memory;
    const mb = (n: number) => Math.round(n / 104_857.6) / 10;
    return {
      rss: mb(m.rss),
      heapUsed: mb(m.heapUsed),
      heapTotal: mb(m.heapTotal),
      external: mb(m.external),
      arrayBuffers: mb(m.arrayBuffers),
    };
  } catch {
    return null;
  }
}
