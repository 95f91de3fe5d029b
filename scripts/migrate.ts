// npm run db:migrate — apply committed migrations to DATABASE_URL.
import { db } from '@/lib/db';
import { migrateDatabase } from '@/db/migrate';

await migrateDatabase(db());
console.log('database is up to date');
