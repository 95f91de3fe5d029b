import { resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { processSlot } from '@/lib/process-state';
import { logDatabase } from '../log';

/**
 * WAL checkpoints on a thread of their own, so they never stall the event loop.
 *
 * Why: SQLite's automatic checkpoint runs inside the COMMIT that takes the WAL past 1,000
 * pages. There it copies those pages into the database file and syncs both files, and
 * because the driver is synchronous, every request of the process waits that long
 * (docs/performance.md has the figures). A worker thread with its own connection now runs `PRAGMA wal_checkpoint(PASSIVE)`
 * a few times a second: passive never waits for readers or the writer, and whatever it
 * cannot copy yet it copies next time. The writer's own automatic checkpoint stays as a
 * backstop at a much larger WAL (BACKSTOP_PAGES), should the worker fall behind; if the
 * worker cannot run at all, the writer goes back to SQLite's default.
 *
 * One worker per database file and process, however many clients (or bundled copies of
 * this module) open the file; it ends when the last of them closes. Other processes on
 * the same file run their own: two passive checkpoints at once are harmless (one finds
 * the checkpoint lock taken and tries again next time).
 */
export const CHECKPOINT_INTERVAL_MS = 250;
/** The writer's automatic checkpoint while the worker runs (pages; SQLite's default is 1,000). */
export const BACKSTOP_PAGES = 10_000;
export const DEFAULT_AUTOCHECKPOINT_PAGES = 1_000;

export type Checkpointer = {
  /** The writer's wal_autocheckpoint: the backstop while the worker runs, SQLite's default otherwise. */
  autocheckpointPages(): number;
  /** Called once if the worker stops for any reason but release. */
  onFailure(listener: () => void): void;
  release(): void;
};

// The worker's code, evaluated as CommonJS. It loads the driver the app itself loads (an
// external package, resolved from the app's directory: the bundler does not see this).
//
// The checkpoint runs through `exec`, which hands nothing back to JavaScript: a call that
// returns a value (`prepare(...).all()`) makes the driver's native binding create that
// value, and when the thread is being stopped at that moment (process exit terminates
// workers) the binding panics and aborts the whole process. With `exec` a worker can be
// terminated mid-checkpoint safely (test/durability.test.ts stops one 60 times). Release
// asks it to stop and close its connection instead of terminating it.
export const CHECKPOINT_WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { createRequire } = require('node:module');
const Database = createRequire(workerData.requireFrom)('libsql');
const { accessSync, constants } = require('node:fs');
const db = new Database(workerData.path, { timeout: 0 });
const shm = workerData.path + '-shm';
const timer = setInterval(() => {
  try {
    // A checkpoint writes to the -shm mapping: on a file that cannot be written (immutable,
    // a file system gone read-only) that is a SIGBUS, which kills the whole process.
    accessSync(shm, constants.W_OK);
  } catch (error) {
    if (error.code !== 'ENOENT') return;
  }
  try {
    db.exec('PRAGMA wal_checkpoint(PASSIVE)');
  } catch {
    // SQLITE_BUSY: another checkpoint (another process) is running; try again next time
  }
}, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  db.close();
  parentPort.close();
});
parentPort.postMessage({ started: true });
`;

type Entry = { worker: Worker; users: number; failed: boolean; listeners: Set<() => void> };
const running = processSlot('sqliteCheckpointers', () => new Map<string, Entry>());

/** Starts (or joins) the checkpoint worker for a database file. */
export function checkpointerFor(path: string, options: { intervalMs?: number } = {}): Checkpointer {
  const key = resolve(/*turbopackIgnore: true*/ path);
  let entry = running.get(key);
  if (!entry || entry.failed) {
    entry = start(key, options.intervalMs ?? CHECKPOINT_INTERVAL_MS);
    running.set(key, entry);
  }
  const mine = entry;
  mine.users += 1;
  let released = false;
  return {
    autocheckpointPages: () => (mine.failed ? DEFAULT_AUTOCHECKPOINT_PAGES : BACKSTOP_PAGES),
    onFailure(listener) {
      if (mine.failed) listener();
      else mine.listeners.add(listener);
    },
    release() {
      if (released) return;
      released = true;
      mine.users -= 1;
      if (mine.users > 0 || mine.failed) return;
      if (running.get(key) === mine) running.delete(key);
      mine.failed = true; // stopping on purpose: nobody is left to tell
      mine.listeners.clear();
      mine.worker.postMessage('stop');
    },
  };
}

function start(path: string, intervalMs: number): Entry {
  const worker = new Worker(CHECKPOINT_WORKER_SOURCE, {
    eval: true,
    workerData: { path, intervalMs, requireFrom: resolve(/*turbopackIgnore: true*/ process.cwd(), 'package.json') },
    // A checkpoint needs a few MB at most.
    resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 },
  });
  worker.unref();
  const entry: Entry = { worker, users: 0, failed: false, listeners: new Set() };
  const fail = (why: unknown) => {
    if (entry.failed) return;
    entry.failed = true;
    // A worker's error carries its stack into the line (as `err`); an exit, its code.
    logDatabase(
      'error',
      why instanceof Error ? { err: why } : { reason: String(why) },
      `the WAL checkpoint worker stopped; the writer checkpoints again itself: ${why instanceof Error ? why.message : String(why)}`,
    );
    for (const listener of entry.listeners) listener();
    entry.listeners.clear();
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(`exit code ${code}`));
  return entry;
}
