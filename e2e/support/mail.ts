import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { header, links, part, waitFor } from '../../test/support/smtp';

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
    files = readdirSync(folder).filter((f) => f.endsWith('.eml')).sort();
  } catch {
    return [];
  }
  return files.map((f) => readFileSync(join(folder, f), 'utf8')).filter((raw) => (header(raw, 'To') ?? '').includes(email));
}
