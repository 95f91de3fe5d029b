import { createHmac } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { DbOrTx, Statement, Value } from '@/db';
import { warnSometimes } from '@/lib/platform/observability/warn-sometimes';
import { enqueueConfirmation } from './outbox';

/**
 * How many confirmation mails the signups may send in a day: per recipient mailbox (see
 * mailboxOf) and per shopper (the one the caller names with Site-Buyer-IP). Past either,
 * the signup answers exactly as if it had sent (no one learns whether an address is known
 * or capped) and nothing is stored or sent.
 *
 * It lives here, not in lib/platform/rate-limit: the rate limiter counts requests before
 * the handler runs, and cannot know what this one knows — whether a signup queues a mail at
 * all (a repeat of a known address queues none and costs nothing), and which addresses are
 * one mailbox. The count is taken in the signup's own transaction, so it rises exactly
 * when a confirmation is queued and rolls back with it.
 */
export type MailBudget = {
  /** The shopper as named by the caller (shopperKeyOf of Site-Buyer-IP), or null: no shopper budget. */
  shopper?: string | null;
  perMailbox?: number;
  perShopper?: number;
  /** HMAC key of the counters' names (RATE_LIMIT_KEY); the same on every instance. */
  secret?: string;
};

export const DEFAULT_MAILS_PER_MAILBOX = 3;
export const DEFAULT_MAILS_PER_SHOPPER = 20;
const DAY_MS = 86_400_000;
// Without a key the counters' names are only pseudonymous (as the rate limiter's are).
const FALLBACK_KEY = 'site-delivery/signup-mails/v1';

/**
 * The mailbox an address delivers to, for counting only (what is stored and mailed stays
 * the address as given): lowercased, and the local part cut at its first `+` — `anna+1`,
 * `anna+news` and `ANNA` all reach anna's inbox at every large provider. Dots are left
 * alone: only Gmail ignores them, and folding them would merge distinct mailboxes elsewhere.
 */
export function mailboxOf(address: string): string {
  const lower = address.toLowerCase();
  const at = lower.lastIndexOf('@');
  if (at <= 0) return lower;
  const local = lower.slice(0, at);
  const plus = local.indexOf('+');
  return `${plus > 0 ? local.slice(0, plus) : local}${lower.slice(at)}`;
}

/**
 * The counter's name: an HMAC of what it counts (a mailbox, a shopper's address), so the
 * table holds neither, and one person's counters do not link from one day to the next.
 */
function counterName(secret: string, siteId: string, what: 'mailbox' | 'shopper', key: string, day: number): string {
  const digest = createHmac('sha256', secret).update(`${siteId}\n${what}\n${day}\n${key}`).digest('base64url').slice(0, 22);
  return `mail:${siteId}:${what === 'mailbox' ? 'm' : 's'}:${digest}`;
}

/**
 * One more mail on a counter of rate_limit_counters; answers the count with it. The row is
 * filed under the day's *end* as its window_start: the rate limiter's sweep deletes rows
 * whose window started before the previous of its own (minute-long) windows, and would
 * otherwise forget a day's count within minutes. Filed this way it goes once the day is over.
 */
async function countOne(tx: DbOrTx, bucket: string, dayEnd: number): Promise<number> {
  const rows = await tx.all<{ count: number }>(sql`
    INSERT INTO rate_limit_counters (bucket, window_start, count) VALUES (${bucket}, ${dayEnd}, 1)
    ON CONFLICT (bucket, window_start) DO UPDATE SET count = count + 1
    RETURNING count`);
  return Number(rows[0]?.count ?? 1);
}

const warn = warnSometimes();

/**
 * Charges one confirmation mail to `address`'s mailbox and to the shopper, in the caller's
 * transaction; false when either budget is spent (the caller then rolls back, so a refused
 * mail costs neither counter anything).
 */
export async function spendMailBudget(
  tx: DbOrTx,
  input: { siteId: string; address: string; now: number; budget: MailBudget },
): Promise<boolean> {
  const { siteId, address, now, budget } = input;
  const secret = budget.secret ?? FALLBACK_KEY;
  const day = Math.floor(now / DAY_MS);
  const dayEnd = (day + 1) * DAY_MS;
  const mailbox = await countOne(tx, counterName(secret, siteId, 'mailbox', mailboxOf(address), day), dayEnd);
  if (mailbox > (budget.perMailbox ?? DEFAULT_MAILS_PER_MAILBOX)) {
    warn('[signups] confirmation mails held back: a mailbox had its daily budget (SIGNUP_MAILS_PER_MAILBOX)');
    return false;
  }
  if (budget.shopper) {
    const shopper = await countOne(tx, counterName(secret, siteId, 'shopper', budget.shopper, day), dayEnd);
    if (shopper > (budget.perShopper ?? DEFAULT_MAILS_PER_SHOPPER)) {
      warn('[signups] confirmation mails held back: a shopper had their daily budget (SIGNUP_MAILS_PER_SHOPPER)');
      return false;
    }
  }
  return true;
}

/**
 * The budget's part of a signup sent as one write batch (see subscribeToNewsletter): one more
 * mail on each counter, and then the check, which fails the batch — and so undoes the whole
 * signup, as spendMailBudget's refusal does — when either went past its limit
 * (db/migrations/0027_mail_budget_checks.sql). Each statement runs only when `armed` (a SELECT
 * that finds a row when the signup queues a confirmation): a signup that queues no mail costs
 * nothing. Catch the failure with isMailBudgetSpent.
 */
export function mailBudgetStatements(
  input: { siteId: string; address: string; now: number; budget: MailBudget },
  armed: { sql: string; args: Value[] },
): Statement[] {
  const { siteId, address, now, budget } = input;
  const secret = budget.secret ?? FALLBACK_KEY;
  const day = Math.floor(now / DAY_MS);
  const dayEnd = (day + 1) * DAY_MS;
  const counters: Array<[string, number]> = [
    [counterName(secret, siteId, 'mailbox', mailboxOf(address), day), budget.perMailbox ?? DEFAULT_MAILS_PER_MAILBOX],
  ];
  if (budget.shopper)
    counters.push([counterName(secret, siteId, 'shopper', budget.shopper, day), budget.perShopper ?? DEFAULT_MAILS_PER_SHOPPER]);
  return [
    ...counters.map(([bucket]) => ({
      // An upsert from a SELECT needs the SELECT to have a WHERE (SQLite parses it so); it has its condition.
      sql: `INSERT INTO rate_limit_counters (bucket, window_start, count) SELECT ?, ?, 1 WHERE EXISTS (${armed.sql})
        ON CONFLICT (bucket, window_start) DO UPDATE SET count = count + 1`,
      args: [bucket, dayEnd, ...armed.args],
    })),
    ...counters.map(([bucket, limit]) => ({
      sql: `INSERT INTO mail_budget_checks (bucket, window_start, "limit") SELECT ?, ?, ? WHERE EXISTS (${armed.sql})`,
      args: [bucket, dayEnd, limit, ...armed.args],
    })),
  ];
}

/** Did a signup's batch fail because its mail was over budget (mailBudgetStatements)? */
export function isMailBudgetSpent(error: unknown): boolean {
  for (let e = error; e instanceof Error; e = e.cause) if (e.message.includes(MAIL_BUDGET_SPENT)) return true;
  return false;
}
const MAIL_BUDGET_SPENT = 'mail budget spent';

/** Thrown inside a signup's transaction to undo it when its mail is over budget. */
export class MailBudgetSpent extends Error {
  constructor() {
    super('The confirmation mail is over its daily budget.');
  }
}

/** A signup whose mail was over budget, rolled back: answered like any other (see MailBudget). */
export async function heldBack<T>(signup: Promise<T>): Promise<T | { created: false; held: true }> {
  try {
    return await signup;
  } catch (error) {
    if (error instanceof MailBudgetSpent) return { created: false, held: true };
    throw error;
  }
}

/**
 * Asks a new or re-armed subscriber, newsletter or stock alike, to confirm: the mail is
 * charged to the budgets, then queued, in the signup's own transaction. Over budget it throws
 * MailBudgetSpent, which undoes the signup (see heldBack).
 */
export async function askToConfirm(tx: DbOrTx, budget: MailBudget, message: Parameters<typeof enqueueConfirmation>[1]): Promise<void> {
  if (!(await spendMailBudget(tx, { siteId: message.siteId, address: message.email, now: message.at, budget })))
    throw new MailBudgetSpent();
  await enqueueConfirmation(tx, message);
}
