// npm run db:migrate — apply committed migrations to DATABASE_URL.
import { db } from '@/lib/db';
import { env } from '@/lib/env';
import { migrateDatabase } from '@/db/migrate';

await migrateDatabase(db(), env().DATABASE_URL);
console.log('database is up to date');
