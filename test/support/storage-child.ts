// A process of its own around one database handle, driven line by line over stdin, so a test
// can see it die (a SIGBUS ends the process it happens in, and must not end the test runner):
//   write  -> "ok" | "fault <kind>"     one insert
//   write-tx -> the same, in a transaction
//   read   -> "read <n>" | "fault <kind>"  count the rows
import { createInterface } from 'node:readline';
import { sql } from 'drizzle-orm';
import { openDatabase } from '@/db/client';
import { storageFaultOf } from '@/db/faults';

const url = process.argv[2]!;
const database = openDatabase({ url, busyTimeoutMs: 500 });
// Fault lines go to stderr, the answers alone to stdout.
console.error = (...args: unknown[]) => process.stderr.write(`${args.map(String).join(' ')}\n`);

async function answer(command: string): Promise<string> {
  try {
    if (command === 'write') {
      await database.run(sql`INSERT INTO probe (v) VALUES ('row')`);
      return 'ok';
    }
    if (command === 'write-tx') {
      await database.transaction(async (tx) => tx.run(sql`INSERT INTO probe (v) VALUES ('row')`));
      return 'ok';
    }
    if (command === 'read') {
      const [row] = await database.all<{ n: number }>(sql`SELECT count(*) AS n FROM probe`);
      return `read ${row!.n}`;
    }
    return `unknown ${command}`;
  } catch (error) {
    return `fault ${storageFaultOf(error) ?? String(error)}`;
  }
}

async function main() {
  await database.run(sql`CREATE TABLE IF NOT EXISTS probe (id INTEGER PRIMARY KEY, v TEXT NOT NULL)`);
  const lines = createInterface({ input: process.stdin });
  // One command at a time, in order.
  let last: Promise<void> = Promise.resolve();
  lines.on('line', (line) => {
    last = last.then(async () => {
      process.stdout.write(`${await answer(line.trim())}\n`);
    });
  });
  lines.on('close', () => void last.then(() => process.exit(0)));
  process.stdout.write('ready\n');
}

void main();
