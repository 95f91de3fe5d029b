import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { sql } from 'drizzle-orm';
import { migrate } from 'drizzle-orm/libsql/migrator';
import type { Database } from './client';
import journal from './migrations/meta/_journal.json';

export const MIGRATIONS_FOLDER = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Applies committed migrations in order; a no-op when the database is current. */
export async function migrateDatabase(database: Database): Promise<void> {
  await migrate(database, { migrationsFolder: MIGRATIONS_FOLDER });
}

/** This build's newest migration, as drizzle records it once applied (its folder time). */
export const BUILD_MIGRATION = journal.entries.reduce((last, entry) => Math.max(last, entry.when), 0);

/**
 * Where the database stands against this build's migrations: `current` (it has this build's
 * newest), `behind` (it lacks some: run `npm run db:migrate`) or `ahead` (a newer release's
 * migrations are applied too; expand-first migrations leave this build working).
 */
export async function migrationState(database: Database): Promise<'current' | 'behind' | 'ahead'> {
  let newest = 0;
  try {
    const rows = await database.all<{ newest: number | null }>(sql`SELECT max(created_at) AS newest FROM __drizzle_migrations`);
    newest = Number(rows[0]?.newest ?? 0);
  } catch (error) {
    // A database never migrated has no such table: it is behind, not broken.
    if (!/no such table/i.test(error instanceof Error ? `${error.message} ${String(error.cause ?? '')}` : '')) throw error;
  }
  return newest === BUILD_MIGRATION ? 'current' : newest < BUILD_MIGRATION ? 'behind' : 'ahead';
}
