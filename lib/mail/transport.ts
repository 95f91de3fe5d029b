import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTransport } from 'nodemailer';
import { logger } from '@/lib/platform/observability/logger';

/** One finished mail, addressed and with its headers: what a transport sends. */
export type Envelope = {
  /** Used for the .eml file name only. */
  outboxId: number;
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  headers: Record<string, string>;
};

export type Mailer = {
  /** `smtp`: handed to a mail server; `eml`: written as a file (no SMTP_URL set). */
  kind: 'smtp' | 'eml';
  /** Resolves once the mail is accepted (SMTP 250) or written; rejects otherwise. Answers where it went. */
  deliver(mail: Envelope): Promise<string>;
  close(): void;
};

// Short enough that a dead server fails a pass quickly (the message is retried later),
// long enough for a slow relay on a busy day.
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

/**
 * SMTP as the URL says: `smtp://user:pass@host:587` upgrades with STARTTLS when the server
 * offers it, `smtps://…:465` is TLS from the first byte. Add `?requireTLS=true` to refuse a
 * server that does not offer STARTTLS.
 */
export function smtpMailer(url: string): Mailer {
  const transport = createTransport({ url, ...TIMEOUTS });
  return {
    kind: 'smtp',
    async deliver(mail) {
      const info = await transport.sendMail(toNodemailer(mail));
      const host = new URL(url).host;
      return `${host} (${info.response ?? 'accepted'})`;
    },
    close: () => transport.close(),
  };
}

/**
 * Without a mail server: each message becomes an .eml file (the raw message, exactly as it
 * would have been sent) in `folder`, which any mail program opens. Written to a temporary
 * name and renamed, so a half-written file never looks finished.
 */
export function emlMailer(folder: string, log: (line: string) => void = (line) => logger().info(line)): Mailer {
  const transport = createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    kind: 'eml',
    async deliver(mail) {
      const info = await transport.sendMail(toNodemailer(mail));
      await mkdir(folder, { recursive: true });
      const file = join(folder, `${String(mail.outboxId).padStart(6, '0')}.eml`);
      await writeFile(`${file}.tmp`, info.message as Buffer);
      await rename(`${file}.tmp`, file);
      log(`[mail] no SMTP_URL set: wrote ${file}`);
      return file;
    },
    close: () => transport.close(),
  };
}

function toNodemailer(mail: Envelope) {
  return {
    from: mail.from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    messageId: mail.messageId,
    headers: mail.headers,
    // No remote content is ever fetched into a message.
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}
