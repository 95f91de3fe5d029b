// npm run -s job -- <name>      one pass of a background job (lib/jobs), then exit
// npm run -s job -- list        the jobs and what each does
import { db } from '@/lib/db';
import { env } from '@/lib/env';
import { migrateDatabase } from '@/db/migrate';
import { JOBS, jobNamed, runJobOnce } from '@/lib/jobs';
import { closeDatabase } from '@/db';

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === 'list' || name === undefined) {
    for (const job of JOBS) console.log(`${job.name.padEnd(14)} ${job.about}`);
    return name === undefined ? 2 : 0;
  }
  const job = jobNamed(name);
  if (!job || rest.length > 0) {
    console.error(`usage: job <${JOBS.map((j) => j.name).join('|')}|list>`);
    return 2;
  }
  await migrateDatabase(db());
  // Pages are rendered by asking the shop for them: its public origin, when it is set.
  const summary = await runJobOnce(job, { deadline: Number.POSITIVE_INFINITY, frontDoor: env().STOREFRONT_ORIGIN ?? null });
  console.log(`${job.name}: ${JSON.stringify(summary)}`);
  return 0;
}

const code = await main(process.argv.slice(2));
closeDatabase(db());
process.exit(code);
