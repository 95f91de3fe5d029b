// Extra `next start` processes for the multi-process tests (two instances on one database,
// kill -9, a locked database). They run the build the Playwright webServer already made.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { openConnection, type Connection } from '@/db';

const NEXT_BIN = join(process.cwd(), 'node_modules', 'next', 'dist', 'bin', 'next');

export type Instance = {
  port: number;
  baseURL: string;
  child: ChildProcess;
  /** What the server has written so far (its log lines may still wait in its batch: `loggedOutput`). */
  output: () => string;
  /** The output once it holds the log lines of everything the server did before the call (logsUpToNow). */
  loggedOutput: () => Promise<string>;
  databaseUrl: string;
};

/**
 * A server's output once it holds the log line of everything the server did before this
 * call. The server writes its lines in batches and in order, so once the line of a request
 * made now is out (a refused API read under a request id of the test's own), every line
 * before it is too: what a test says is not in the log is then really not there.
 */
export async function logsUpToNow(baseURL: string, output: () => string): Promise<string> {
  const marker = `req_logged_${randomBytes(8).toString('hex')}`;
  await (await fetch(`${baseURL}/site/v1/site`, { headers: { 'X-Request-Id': marker } })).arrayBuffer();
  const until = Date.now() + 15_000;
  while (!output().includes(`"requestId":"${marker}"`)) {
    if (Date.now() > until) throw new Error(`the server did not log ${marker}:\n${output().slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  return output();
}

/** A port the OS says is free right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * Starts `next start` on its own port against `databaseUrl`, in its own process group (so
 * kill -9 reaches the server process itself, whatever it forks), and waits until it answers.
 */
export async function startInstance(
  databaseUrl: string,
  env: Record<string, string> = {},
  timeoutMs = 60_000,
  port?: number,
): Promise<Instance> {
  // A caller that must know the port first (to put it in the instance's settings) passes it.
  port ??= await freePort();
  const child = spawn(process.execPath, [NEXT_BIN, 'start', '-p', String(port), '-H', '127.0.0.1'], {
    cwd: process.cwd(),
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1', DATABASE_URL: databaseUrl, PORT: String(port), ...env },
  });
  let log = '';
  child.stdout!.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  const baseURL = `http://127.0.0.1:${port}`;
  const output = () => log;
  const instance: Instance = { port, baseURL, child, output, loggedOutput: () => logsUpToNow(baseURL, output), databaseUrl };

  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`next start exited early:\n${log}`);
    try {
      const res = await fetch(`${instance.baseURL}/site/v1/openapi.json`, { signal: AbortSignal.timeout(2_000) });
      if (res.ok) return instance;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  killInstance(instance);
  throw new Error(`next start did not answer within ${timeoutMs} ms:\n${log}`);
}

/** SIGKILL to the whole process group: no shutdown hook, no flush, exactly like a crash. */
export function killInstance(instance: Instance): Promise<void> {
  return new Promise((resolve) => {
    if (instance.child.exitCode !== null || instance.child.signalCode !== null) return resolve();
    instance.child.once('exit', () => resolve());
    try {
      process.kill(-instance.child.pid!, 'SIGKILL');
    } catch {
      resolve();
    }
  });
}

/**
 * A plain client on a database file (not the app's write queue): stands for another process.
 * Servers write to the file at any moment (kept pages, counters), so it waits its turn for
 * the lock, as an admin tool would, instead of failing at once with SQLITE_BUSY.
 */
export function rawClient(url: string): Connection {
  return openConnection(url, { busyTimeoutMs: 10_000 });
}

/** The shared e2e server's database. */
export function mainDatabaseUrl(): string {
  return `file:${join(process.env.E2E_DATA_DIR!, 'site.db')}`;
}

/** A consistent copy of a live database (VACUUM INTO reads one snapshot), in WAL mode like the original. */
export async function copyDatabase(fromUrl: string, toPath: string): Promise<string> {
  const source = rawClient(fromUrl);
  try {
    await source.execute({ sql: 'VACUUM INTO ?', args: [toPath] });
  } finally {
    source.close();
  }
  const url = `file:${toPath}`;
  const copy = rawClient(url);
  try {
    await copy.execute('PRAGMA journal_mode = WAL');
  } finally {
    copy.close();
  }
  return url;
}

/**
 * Two `next start` instances on one copy of the e2e database (in `scratch`), with a raw
 * client to it: for what must hold across instances. `stop` ends all three.
 */
export async function twoInstancesOnACopy(scratch: string, env: Record<string, string>) {
  const url = await copyDatabase(mainDatabaseUrl(), join(scratch, 'site.db'));
  const [a, b] = await Promise.all([startInstance(url, env), startInstance(url, env)]);
  const database = rawClient(url);
  return {
    url,
    a,
    b,
    database,
    async stop() {
      database.close();
      await Promise.all([a, b].map(killInstance));
    },
  };
}
