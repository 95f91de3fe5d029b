import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { migrate } from 'drizzle-orm/libsql/migrator';
import { configureLocalDatabase, type Database } from './client';

export const MIGRATIONS_FOLDER = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Applies committed migrations in order; a no-op when the database is current. */
export async function migrateDatabase(database: Database, url: string): Promise<void> {
  await configureLocalDatabase(database, url);
  await migrate(database, { migrationsFolder: MIGRATIONS_FOLDER });
}
