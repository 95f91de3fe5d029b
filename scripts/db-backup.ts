// npm run -s db:backup -- <file>   a consistent copy of the live local database (docs/operating.md, "Backups")
import { env } from '@/lib/env';
import { backupLocalDatabase, BackupRefused } from '@/db/backup';

const [target, ...rest] = process.argv.slice(2);
if (!target || rest.length > 0) {
  console.error('usage: db:backup <file>');
  process.exit(2);
}
try {
  const started = Date.now();
  const bytes = await backupLocalDatabase(env().DATABASE_URL, target);
  console.log(`backed up to ${target} (${(bytes / 1e6).toFixed(1)} MB, integrity ok) in ${Date.now() - started} ms`);
} catch (error) {
  if (!(error instanceof BackupRefused)) throw error;
  console.error(error.message);
  process.exit(2);
}
