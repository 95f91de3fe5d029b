import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Connection } from '@/db';
import { header, links, part, testSmtp, waitFor, type TestSmtp } from '../../test/support/smtp';
import { copyDatabase, killInstance, mainDatabaseUrl, rawClient, startInstance, type Instance } from './instances';

export { header, links, part, waitFor };
export { testSmtp, type TestSmtp } from '../../test/support/smtp';

/** Where a link in a mail leads: /visit?…&to=<path> goes on to <path> (after setting market and language). */
export function target(link: string): URL {
  const url = new URL(link);
  return url.pathname === '/visit' ? new URL(url.searchParams.get('to')!, url.origin) : url;
}

/** The first link of a mail's text part that leads to `path`. */
export function linkTo(raw: string, path: string): string {
  const found = links(part(raw, 'text/plain') ?? '').find((l) => target(l).pathname === path);
  if (!found) throw new Error(`no link to ${path} in the mail`);
  return found;
}

export function tokenIn(link: string): string {
  return target(link).searchParams.get('token')!;
}

/** The .eml files the e2e server wrote (no SMTP_URL there): the raw mails sent to `email`. */
export function emlMailsTo(email: string, folder = join(process.env.E2E_DATA_DIR!, 'outbox')): string[] {
  let files: string[];
  try {
    files = readdirSync(folder)
      .filter((f) => f.endsWith('.eml'))
      .sort();
  } catch {
    return [];
  }
  return files.map((f) => readFileSync(join(folder, f), 'utf8')).filter((raw) => (header(raw, 'To') ?? '').includes(email));
}

export type MailingInstance = { smtp: TestSmtp; instance: Instance; database: Connection; stop: () => Promise<void> };

/**
 * A `next start` of its own on a copy of the e2e database (so what it sends and changes stays
 * its own), sending through a real SMTP server of its own, with a raw client on the copy.
 */
export async function instanceWithMail(
  name: string,
  env: Record<string, string>,
  options: { smtpDelayMs?: number; port?: number } = {},
): Promise<MailingInstance> {
  const smtp = await testSmtp({ delayMs: options.smtpDelayMs });
  await smtp.start();
  const copy = await copyDatabase(mainDatabaseUrl(), join(mkdtempSync(join(tmpdir(), `sd-${name}-e2e-`)), 'site.db'));
  const instance = await startInstance(
    copy,
    { SMTP_URL: smtp.url, MAIL_FROM: 'Nordlys Home & Goods <shop@nordlys.example>', ...env },
    90_000,
    options.port,
  );
  const database = rawClient(copy);
  return {
    smtp,
    instance,
    database,
    async stop() {
      database.close();
      await killInstance(instance);
      await smtp.stop();
    },
  };
}
