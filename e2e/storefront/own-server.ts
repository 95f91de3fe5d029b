import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { logsUpToNow, mainDatabaseUrl } from '../support/instances';

/** A free TCP port on 127.0.0.1. */
async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? ok(address.port) : fail(new Error('no port'))));
    });
  });
}

export type OwnServer = {
  url: string;
  /** What the server has written so far (its log lines may still wait in its batch: `loggedOutput`). */
  output: () => string;
  /** The output once it holds the log lines of everything the server did before the call (logsUpToNow). */
  loggedOutput: () => Promise<string>;
  stop: () => Promise<void>;
};

/**
 * `next start` of the same production build on the same database, with its stdout and
 * stderr captured: for tests that must read the server's log or break its API on purpose.
 */
export async function startOwnServer(env: Record<string, string>): Promise<OwnServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const child: ChildProcess = spawn(
    process.execPath,
    [resolve('node_modules/next/dist/bin/next'), 'start', '-p', String(port), '-H', '127.0.0.1'],
    {
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'production',
        NEXT_TELEMETRY_DISABLED: '1',
        NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? '.next',
        DATABASE_URL: mainDatabaseUrl(),
        SITE_API_BASE_URL: url,
        // Renders no page a test did not ask for (render gate, logs); page-cache.spec.ts tests it.
        PAGE_RENDER_AHEAD: 'off',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited: ${output}`);
    let status = 0;
    try {
      status = (await fetch(`${url}/robots.txt`)).status;
    } catch {
      // not listening yet
    }
    if (status > 0 && status < 500) break;
    if (Date.now() > deadline) throw new Error(status ? `server still answers ${status}: ${output}` : `server did not start: ${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    output: () => output,
    loggedOutput: () => logsUpToNow(url, () => output),
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}
