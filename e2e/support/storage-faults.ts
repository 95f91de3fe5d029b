// Helpers for the storage-fault tests (a server whose database files turn read-only).
import { spawnSync } from 'node:child_process';
import { writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from '@playwright/test';

/** chattr +i works here (root, a file system with the flag): files become unwritable, even for root. */
export function canMakeImmutable(dir: string): boolean {
  if (process.getuid?.() !== 0) return false;
  const probe = join(dir, 'chattr-probe');
  writeFileSync(probe, '');
  const ok = spawnSync('chattr', ['+i', probe]).status === 0;
  spawnSync('chattr', ['-i', probe]);
  rmSync(probe);
  return ok;
}

/**
 * The database file, its -wal and -shm, with everything checkpointed and written out to disk,
 * and no commit in between. Then the next write must restart the WAL through the -shm mapping,
 * and the kernel is asked again before that write — the write that used to be a SIGBUS once
 * the files are immutable. (Files that turn read-only right after a commit, with no quiet
 * moment, are the test after it in storage-faults.spec.ts.)
 *
 * The checkpoint runs in a process of its own, which has exited, and unmapped the -shm, before
 * the caller makes the files immutable. A connection in the test's own process could outlive its
 * close() (SQLite closes it once its last statement is collected) and touch the mapping after
 * the files turned immutable: the test process itself then died of SIGBUS, now and then.
 */
export async function checkpointedAndWrittenOut(url: string): Promise<string[]> {
  const path = url.slice('file:'.length);
  const files = [path, `${path}-wal`, `${path}-shm`];
  const source = `
    const Database = require('node:module').createRequire(process.cwd() + '/package.json')('libsql');
    const { spawnSync } = require('node:child_process');
    const files = ${JSON.stringify(files)};
    const db = new Database(files[0], { timeout: 5000 });
    const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)').raw();
    // every frame of the WAL checkpointed: its frame count, else null
    const frames = () => { const [, log, done] = checkpoint.get(); return log === done ? log : null; };
    const deadline = Date.now() + 60000;
    for (;;) {
      const before = frames();
      if (before !== null) {
        if (spawnSync('sync', files).status !== 0) process.exit(2);
        if (frames() === before) break;
      }
      if (Date.now() > deadline) process.exit(3);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
    }
    db.close();
  `;
  const run = spawnSync(process.execPath, ['-e', source], { encoding: 'utf8', timeout: 90_000 });
  expect(run.status, `checkpoint process: ${run.stderr}`).toBe(0);
  return files;
}
