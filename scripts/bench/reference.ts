import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RssSampler, runToCompletion, startProcess, stopProcess, waitForHttp } from './processes';
import { memoryMbAt, ROOT, type Memory, type Server } from './server';

/**
 * The reference every target is a ratio to: a bare Next app (scripts/bench/reference-app,
 * default settings, no code of ours) built and started in its own process, from the same
 * `next` the shop runs on. Its routes answer the same bytes as the scenario they are set
 * against: `/static?bytes=N` (a route handler at a static path), `/site/v1/commerce/products/
 * <handle>?bytes=N` (behind a dynamic segment, product's own path shape), `POST /post?bytes=N`
 * (parses a JSON body), `/products/<handle>` (a storefront product page's exact HTML, from
 * `pageFile`), `/rendered/<name>` (a bare page rendered on its first request and kept, about
 * as many bytes as `pageFile`), and `/` (a static page, Lighthouse's reference).
 */
const APP = join(ROOT, 'scripts', 'bench', 'reference-app');
const NEXT_BIN = join(ROOT, 'node_modules', 'next', 'dist', 'bin', 'next');
const DIST = '.next-reference';

function referenceEnv(pageFile: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    NODE_ENV: 'production',
    NEXT_TELEMETRY_DISABLED: '1',
    REFERENCE_DIST_DIR: DIST,
    REFERENCE_PAGE_FILE: pageFile,
  };
}

export async function buildReference(): Promise<void> {
  await runToCompletion('reference build', process.execPath, [NEXT_BIN, 'build', APP], referenceEnv(''), 300_000);
}

/** Saves the page whose bytes the reference serves; call before startReference. */
export function savePage(dir: string, html: string): string {
  const file = join(dir, 'reference-page.html');
  writeFileSync(file, html);
  return file;
}

export async function startReference(port: number, pageFile: string, options: { cpuProfileDir?: string } = {}): Promise<Server> {
  const base = `http://127.0.0.1:${port}`;
  const profiling = options.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`] : [];
  const managed = startProcess(
    'reference',
    process.execPath,
    [...profiling, NEXT_BIN, 'start', APP, '-p', String(port), '-H', '127.0.0.1'],
    referenceEnv(pageFile),
  );
  const rss = new RssSampler(managed.pid);
  try {
    await waitForHttp(`${base}/static?bytes=64`, managed);
  } catch (error) {
    rss.stop();
    await stopProcess(managed);
    throw error;
  }
  return {
    label: 'reference',
    base,
    managed,
    rss,
    stop: async () => {
      rss.stop();
      // SIGINT lets node write its --cpu-prof file; SIGKILL follows if it lingers.
      if (options.cpuProfileDir) process.kill(managed.pid, 'SIGINT');
      await stopProcess(managed);
    },
  };
}

/** The bare app's process.memoryUsage() (MB), without a GC: it runs as it ships. */
export function referenceMemoryMb(reference: Server): Promise<Memory | null> {
  return memoryMbAt(`${reference.base}/memory`);
}
