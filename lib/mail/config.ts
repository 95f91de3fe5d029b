import 'server-only';
import { join, resolve } from 'node:path';
import { databaseFolder } from '@/db';
import { env } from '@/lib/env';
import type { DrainOptions } from './drain';
import { emlMailer, smtpMailer, type Mailer } from './transport';

/** Where links in mails point: the shop's public origin, else this server. */
export function storefrontOrigin(): string {
  const settings = env();
  return settings.STOREFRONT_ORIGIN ?? `http://localhost:${settings.PORT}`;
}

/** `outbox/` beside a local database file (`data/site.db` → `data/outbox/`), else `data/outbox/`. */
export function emlFolder(): string {
  const settings = env();
  if (settings.MAIL_EML_DIR) return resolve(settings.MAIL_EML_DIR);
  const folder = databaseFolder(settings.DATABASE_URL);
  return folder ? join(folder, 'outbox') : resolve('data', 'outbox');
}

export function configuredMailer(): Mailer {
  const settings = env();
  return settings.SMTP_URL ? smtpMailer(settings.SMTP_URL) : emlMailer(emlFolder());
}

/** Everything a drain pass needs from the environment (docs/mail.md), but the database. */
export function drainSettings(mailer: Mailer): Omit<DrainOptions, 'database'> {
  const settings = env();
  return {
    mailer,
    origin: storefrontOrigin(),
    from: settings.MAIL_FROM ?? 'shop@localhost',
    merchantEmail: settings.MERCHANT_EMAIL,
    retry: { maxAttempts: settings.OUTBOX_MAX_ATTEMPTS, baseDelayMs: settings.OUTBOX_RETRY_BASE_MS, maxDelayMs: 3_600_000 },
  };
}
