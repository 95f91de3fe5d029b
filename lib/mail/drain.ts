import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Database } from '@/db/client';
import { composeMessage } from '@/lib/commerce/signups/messages';
import { composeOrderMail, isOrderTopic } from '@/lib/commerce/orders/receipt';
import { claimDueMessages, markFailed, markSent, markSkipped, type OutboxMessage, type RetryPolicy } from '@/lib/commerce/signups/outbox';
import { renderMail } from './render';
import { renderOrderMail } from './receipt';
import type { Envelope, Mailer } from './transport';
import { logger } from '@/lib/platform/observability/logger';
import { inSpan, tracing } from '@/lib/platform/observability/tracing';

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 8, baseDelayMs: 30_000, maxDelayMs: 3_600_000 };

export type DrainOptions = {
  database: Database;
  mailer: Mailer;
  /** The storefront's public origin: every link in a mail points there. */
  origin: string;
  /** `shop@example.com` or `Shop <shop@example.com>`; without a name, the shop's name is shown. */
  from: string;
  /** Who holds the claimed rows (claimed_by); unique per process by default. */
  drainer?: string;
  retry?: RetryPolicy;
  /** How long a claim lasts; a drainer that dies frees its messages after this. */
  leaseMs?: number;
  batchSize?: number;
  /** A pass stops after this many messages, so one pass never runs for ever. */
  maxMessages?: number;
  now?: () => number;
  log?: (line: string) => void;
  /** True once the process is shutting down: the pass claims no further batch. */
  stopped?: () => boolean;
  /** Who gets the notice of each new order (MERCHANT_EMAIL); unset, those notices are skipped. */
  merchantEmail?: string;
};

export type DrainResult = { sent: number; retried: number; failed: number; skipped: number };

export function drainerId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
}

/**
 * One pass over the outbox's e-mail messages: claim a few due ones (a lease in the
 * database), compose and send each, mark it sent — or count the failure and schedule the
 * next attempt with exponential backoff, parking it as `failed` after the last. Repeats
 * until nothing is due. Nothing is deleted.
 *
 * Sending and marking are two steps: a crash between them sends that message again when its
 * lease runs out. The Message-ID is derived from the outbox row, so the copy has the same
 * one and a receiving system can drop it.
 */
export async function drainOutbox(options: DrainOptions): Promise<DrainResult> {
  const {
    database,
    mailer,
    origin,
    from,
    retry = DEFAULT_RETRY,
    leaseMs = 5 * 60_000,
    batchSize = 5,
    maxMessages = 500,
    now = Date.now,
    log = (line: string) => logger().warn({ job: 'outbox' }, line),
    stopped = () => false,
  } = options;
  const drainer = options.drainer ?? drainerId();
  const result: DrainResult = { sent: 0, retried: 0, failed: 0, skipped: 0 };
  let handled = 0;

  while (handled < maxMessages && !stopped()) {
    const batch = await claimDueMessages(database, { drainer, now: now(), leaseMs, limit: Math.min(batchSize, maxMessages - handled) });
    if (batch.length === 0) break;
    for (const message of batch) {
      handled += 1;
      const deliver = () =>
        isOrderTopic(message.topic)
          ? deliverOrderMail(database, mailer, message, { origin, from, retry, now, log, merchantEmail: options.merchantEmail })
          : deliverOne(database, mailer, message, { origin, from, retry, now, log });
      // A span per message: the outbox row and its topic, never the address.
      const outcome = tracing()
        ? await inSpan(
            'outbox deliver',
            { attributes: { 'outbox.message.id': message.id, 'outbox.topic': message.topic, 'mail.transport': mailer.kind } },
            async (span) => {
              const done = await deliver();
              span.setAttribute('outbox.outcome', done);
              return done;
            },
          )
        : await deliver();
      result[outcome] += 1;
    }
  }
  return result;
}

async function deliverOne(
  database: Database,
  mailer: Mailer,
  message: OutboxMessage,
  ctx: { origin: string; from: string; retry: RetryPolicy; now: () => number; log: (line: string) => void },
): Promise<keyof DrainResult> {
  try {
    const composed = await composeMessage(database, message, ctx.origin, ctx.now());
    if ('skip' in composed) {
      await markSkipped(database, message.id, composed.skip);
      return 'skipped';
    }
    const m = composed.send;
    const mail = renderMail(m);
    const envelope: Envelope = {
      outboxId: message.id,
      from: fromHeader(ctx.from, m.shopName),
      to: m.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      messageId: messageIdFor(message, ctx.from),
      headers: {
        // RFC 8058: a mail client may offer "unsubscribe" and POST to this URL itself.
        'List-Unsubscribe': `<${m.links.oneClickUnsubscribe}>`,
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
        'Auto-Submitted': 'auto-generated',
        'Content-Language': mail.language,
      },
    };
    await mailer.deliver(envelope);
    await markSent(database, message.id, ctx.now());
    return 'sent';
  } catch (error) {
    const reason = describe(error);
    const outcome = await markFailed(database, message, reason, ctx.now(), ctx.retry);
    // The outbox row id and the error only: never the address (a relay's error may quote it).
    const redacted = reason.replace(/[^\s<>()"',;:]+@[^\s<>()"',;:]+/g, '<address>');
    ctx.log(
      `[outbox] message ${message.id} (${message.topic}) attempt ${message.attempts + 1} failed: ${redacted}${outcome === 'failed' ? ' — parked as failed' : ''}`,
    );
    return outcome === 'failed' ? 'failed' : 'retried';
  }
}

/**
 * A receipt or a merchant's notice: transactional mail, so no unsubscribe headers; the
 * same marking, retries and Message-ID as every other outbox mail.
 */
async function deliverOrderMail(
  database: Database,
  mailer: Mailer,
  message: OutboxMessage,
  ctx: { origin: string; from: string; retry: RetryPolicy; now: () => number; log: (line: string) => void; merchantEmail?: string },
): Promise<keyof DrainResult> {
  try {
    const composed = await composeOrderMail(database, message, ctx.origin, ctx.merchantEmail);
    if ('skip' in composed) {
      await markSkipped(database, message.id, composed.skip);
      return 'skipped';
    }
    const mail = renderOrderMail(composed.send);
    await mailer.deliver({
      outboxId: message.id,
      from: fromHeader(ctx.from, composed.send.shopName),
      to: composed.send.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      messageId: messageIdFor(message, ctx.from),
      headers: { 'Auto-Submitted': 'auto-generated', 'Content-Language': mail.language },
    });
    await markSent(database, message.id, ctx.now());
    return 'sent';
  } catch (error) {
    const reason = describe(error);
    const outcome = await markFailed(database, message, reason, ctx.now(), ctx.retry);
    ctx.log(
      `[outbox] message ${message.id} (${message.topic}) attempt ${message.attempts + 1} failed: ${reason.replace(/[^\s<>()"',;:]+@[^\s<>()"',;:]+/g, '<address>')}${outcome === 'failed' ? ' — parked as failed' : ''}`,
    );
    return outcome === 'failed' ? 'failed' : 'retried';
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown; responseCode?: unknown }).code;
    return `${typeof code === 'string' ? `${code}: ` : ''}${error.message}`.replace(/\s+/g, ' ').slice(0, 500);
  }
  return String(error).slice(0, 500);
}

/** The address part of MAIL_FROM (`Name <a@b>` or `a@b`). */
export function fromAddress(from: string): string {
  return (/<([^>]+)>\s*$/.exec(from)?.[1] ?? from).trim();
}

function fromHeader(from: string, shopName: string): string {
  if (/<[^>]+>\s*$/.test(from)) return from;
  return `"${shopName.replace(/["\\\r\n]/g, '')}" <${from.trim()}>`;
}

/** The same for every attempt at one outbox row: a duplicate after a crash can be recognised. */
export function messageIdFor(message: Pick<OutboxMessage, 'id' | 'siteId'>, from: string): string {
  const domain = fromAddress(from).split('@')[1] || 'localhost';
  return `<outbox.${message.id}.${message.siteId.toLowerCase()}@${domain}>`;
}
