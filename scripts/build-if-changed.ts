/**
 * `npm start`'s build step: runs `next build` only when what a build is made of changed
 * since the last one (a build takes minutes on two cores; a restart should not). The
 * fingerprint is a hash of every source file's path and bytes, kept in the build folder.
 */
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = process.cwd();
const DIST = process.env.NEXT_DIST_DIR || '.next';
const STAMP = join(DIST, 'source-fingerprint');
/** What a build reads: the app's code and files, its configuration and its dependencies. */
const INPUTS = [
  'app',
  'lib',
  'db',
  'public',
  'proxy.ts',
  'instrumentation.ts',
  'next.config.mjs',
  'tsconfig.json',
  'package.json',
  'package-lock.json',
];
const SKIP = new Set(['node_modules', '.git', 'migrations']);

function* files(path: string): Generator<string> {
  if (!existsSync(path)) return;
  if (statSync(path).isFile()) {
    yield path;
    return;
  }
  for (const name of readdirSync(path).sort()) if (!SKIP.has(name)) yield* files(join(path, name));
}

function sourceFingerprint(): string {
  const hash = createHash('sha256');
  for (const input of INPUTS) {
    for (const file of files(join(ROOT, input))) hash.update(relative(ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

const built = existsSync(join(DIST, 'BUILD_ID')) && existsSync(STAMP) && readFileSync(STAMP, 'utf8') === sourceFingerprint();
if (built) {
  console.log(`Using the build in ${DIST}: no source changed since it was made.`);
} else {
  const result = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'next', 'dist', 'bin', 'next'), 'build'], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
  // Taken after the build: `next build` may itself update tsconfig.json.
  writeFileSync(STAMP, sourceFingerprint());
}
