// npm run -s outbox -- drain            one pass: send what is due (cron, serverless), then exit
// npm run -s outbox -- status           messages by channel and status
// npm run -s outbox -- retry [id…]      queue parked (failed) messages again, all or by id
import { db } from '@/lib/db';
import { migrateDatabase } from '@/db/migrate';
import { outboxSummary, requeueFailedMessages } from '@/lib/commerce/signups/outbox';
import { configuredMailer, drainSettings } from '@/lib/mail/config';
import { drainOutbox } from '@/lib/mail/drain';
import { closeDatabase } from '@/db';

const USAGE = `usage:
  outbox drain           send every message that is due, once
  outbox status          count messages by channel and status
  outbox retry [id …]    queue parked (failed) messages again`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const database = db();
  await migrateDatabase(database);

  if (command === 'drain') {
    const mailer = configuredMailer();
    try {
      const result = await drainOutbox({ database, ...drainSettings(mailer) });
      console.log(`sent ${result.sent}, retrying later ${result.retried}, parked as failed ${result.failed}, skipped ${result.skipped}`);
      // A cron job should notice when mail is not going out.
      return result.retried + result.failed > 0 && result.sent === 0 ? 1 : 0;
    } finally {
      mailer.close();
    }
  }
  if (command === 'status') {
    const rows = await outboxSummary(database);
    if (rows.length === 0) console.log('The outbox is empty.');
    for (const row of rows) console.log(`${row.channel.padEnd(8)} ${row.status.padEnd(8)} ${row.count}`);
    return 0;
  }
  if (command === 'retry') {
    const ids = rest.map(Number);
    if (ids.some((id) => !Number.isInteger(id) || id <= 0)) {
      console.error(USAGE);
      return 2;
    }
    const n = await requeueFailedMessages(database, Date.now(), ids.length > 0 ? ids : undefined);
    console.log(`Queued ${n} message${n === 1 ? '' : 's'} again.`);
    return 0;
  }
  console.error(USAGE);
  return 2;
}

const code = await main(process.argv.slice(2));
closeDatabase(db());
process.exit(code);
