import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { createClient } from '@libsql/client';

export class BackupRefused extends Error {}

/**
 * Copies a live local database file to `toPath`, consistently while writes go on: SQLite's
 * `VACUUM INTO` reads one snapshot, so the copy holds every write committed before it
 * began and none half done, and writers are not held meanwhile (WAL). It runs on a
 * connection of its own, not the app's write queue. A remote database is the server's to
 * back up (its point-in-time restore), so it is refused. Answers the copy's size in bytes.
 */
export async function backupLocalDatabase(url: string, toPath: string): Promise<number> {
  if (!url.startsWith('file:'))
    throw new BackupRefused(
      'DATABASE_URL is not a local file: back up a libSQL server with its own tools (Turso: point-in-time restore, or `turso db shell <db> .dump`).',
    );
  const target = resolve(toPath);
  if (existsSync(target)) throw new BackupRefused(`${target} exists already; a backup never overwrites a file.`);
  const client = createClient({ url, timeout: 10_000 });
  try {
    await client.execute({ sql: 'VACUUM INTO ?', args: [target] });
  } finally {
    client.close();
  }
  const copy = createClient({ url: `file:${target}` });
  try {
    const check = await copy.execute('PRAGMA integrity_check');
    const verdict = String(check.rows[0]?.[0] ?? '');
    if (verdict !== 'ok') throw new Error(`the copy failed its integrity check: ${verdict}`);
  } finally {
    copy.close();
  }
  return statSync(target).size;
}
