// Helpers for the storage-fault tests (a server whose database files turn read-only).
import { spawnSync } from 'node:child_process';
import { writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { rawClient } from './instances';

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
 * the files are immutable. (Without a quiet moment, a commit just before the fault would leave
 * the next reader to note its place in the -shm file, a risk this test does not measure.)
 */
export async function checkpointedAndWrittenOut(url: string): Promise<string[]> {
  const path = url.slice('file:'.length);
  const files = [path, `${path}-wal`, `${path}-shm`];
  const other = rawClient(url);
  const walFrames = async () => {
    const [row] = (await other.execute('PRAGMA wal_checkpoint(PASSIVE)')).rows;
    return Number(row![1]) === Number(row![2]) ? Number(row![1]) : null;
  };
  try {
    for (;;) {
      let frames: number | null = null;
      await expect.poll(async () => (frames = await walFrames())).not.toBeNull();
      expect(spawnSync('sync', files).status).toBe(0);
      if ((await walFrames()) === frames) return files;
    }
  } finally {
    other.close();
  }
}
