import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull, ne } from 'drizzle-orm';
import { consents, newsletterSubscriptions, stockSubscriptions, subscriptionTokens } from '@/db/schema';
import type { Database, DbOrTx } from '@/db/client';
import { DomainError } from '@/lib/platform/errors';

export type TokenPurpose = (typeof subscriptionTokens.$inferInsert)['purpose'];
export type SubscriptionKind = (typeof subscriptionTokens.$inferInsert)['kind'];
export type SubscriptionStatus = 'pending_confirmation' | 'active' | 'notified' | 'unsubscribed';
export type WithdrawalVia = 'one_click' | 'page';

/** A confirmation link works this long; an unsubscribe link never stops working. */
export const CONFIRM_TOKEN_TTL_MS = 7 * 86_400_000;

/** What a token operation answers: the subscription's kind and its state now. */
export type SubscriptionState = { kind: SubscriptionKind; status: SubscriptionStatus; changed: boolean };

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * A new link token: 32 random bytes (256 bits, base64url). Only its hash is stored, so the
 * database alone cannot make a working link; the mail is the only place the token exists.
 */
export async function mintToken(
  tx: DbOrTx,
  grant: { siteId: string; purpose: TokenPurpose; kind: SubscriptionKind; subscriptionId: string; consentId: string; now: number },
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await tx.insert(subscriptionTokens).values({
    tokenHash: hashToken(token),
    siteId: grant.siteId,
    purpose: grant.purpose,
    kind: grant.kind,
    subscriptionId: grant.subscriptionId,
    consentId: grant.consentId,
    expiresAt: grant.purpose === 'confirm' ? grant.now + CONFIRM_TOKEN_TTL_MS : null,
    createdAt: grant.now,
  });
  return token;
}

async function findToken(tx: DbOrTx, siteId: string, token: string, purpose: TokenPurpose) {
  const [row] = await tx
    .select()
    .from(subscriptionTokens)
    .where(
      and(
        eq(subscriptionTokens.tokenHash, hashToken(token)),
        eq(subscriptionTokens.siteId, siteId),
        eq(subscriptionTokens.purpose, purpose),
      ),
    );
  // One answer for "never existed", "another Site's" and "a token for something else".
  if (!row) throw new DomainError('unknown_token', 'This link is not valid. It may have been copied incompletely.');
  return row;
}

function tableOf(kind: SubscriptionKind) {
  return kind === 'stock' ? stockSubscriptions : newsletterSubscriptions;
}

async function currentSubscription(tx: DbOrTx, kind: SubscriptionKind, siteId: string, id: string) {
  const table = tableOf(kind);
  const [row] = await tx
    .select({ status: table.status, consentId: table.consentId })
    .from(table)
    .where(and(eq(table.id, id), eq(table.siteId, siteId)));
  if (!row) throw new DomainError('unknown_token', 'This link is not valid any more: its subscription no longer exists.');
  return row as { status: SubscriptionStatus; consentId: string };
}

/**
 * Double opt-in: `pending_confirmation` → `active` for the consent the link was sent for,
 * and the consent record gets its confirmation time. Confirming again, or after the
 * address unsubscribed, changes nothing and answers the state as it is. An expired link
 * only fails while there is still something to confirm.
 *
 * A stock subscription confirmed while its variant is already purchasable is told at once
 * (a database trigger, beside the restock ones), so the answer may be `notified`.
 */
export async function confirmSubscription(database: Database, siteId: string, token: string, now = Date.now()): Promise<SubscriptionState> {
  return database.transaction(async (tx) => {
    const grant = await findToken(tx, siteId, token, 'confirm');
    const table = tableOf(grant.kind);
    const before = await currentSubscription(tx, grant.kind, siteId, grant.subscriptionId);
    const waiting = before.status === 'pending_confirmation' && before.consentId === grant.consentId;
    if (!waiting) return { kind: grant.kind, status: before.status, changed: false };
    if (grant.expiresAt !== null && grant.expiresAt <= now) {
      throw new DomainError('token_expired', 'This confirmation link has expired (links work for 7 days). Sign up again to get a new one.');
    }
    await tx
      .update(table)
      .set({ status: 'active' })
      .where(and(eq(table.id, grant.subscriptionId), eq(table.siteId, siteId), eq(table.status, 'pending_confirmation')));
    await tx
      .update(consents)
      .set({ confirmedAt: now })
      .where(and(eq(consents.id, grant.consentId), isNull(consents.confirmedAt)));
    const after = await currentSubscription(tx, grant.kind, siteId, grant.subscriptionId);
    return { kind: grant.kind, status: after.status, changed: true };
  });
}

/**
 * Unsubscribe by the link in any of the subscription's mails. The withdrawal is recorded
 * on the consent the subscription stands on (when, and whether by one-click or the page),
 * so the records show both the agreement and its end. Unsubscribing twice is harmless.
 */
export async function unsubscribeByToken(
  database: Database,
  siteId: string,
  token: string,
  via: WithdrawalVia,
  now = Date.now(),
): Promise<SubscriptionState> {
  return database.transaction(async (tx) => {
    const grant = await findToken(tx, siteId, token, 'unsubscribe');
    const table = tableOf(grant.kind);
    const before = await currentSubscription(tx, grant.kind, siteId, grant.subscriptionId);
    if (before.status === 'unsubscribed') return { kind: grant.kind, status: before.status, changed: false };
    await tx
      .update(table)
      .set({ status: 'unsubscribed' })
      .where(and(eq(table.id, grant.subscriptionId), eq(table.siteId, siteId), ne(table.status, 'unsubscribed')));
    await tx
      .update(consents)
      .set({ withdrawnAt: now, withdrawnVia: via })
      .where(and(eq(consents.id, before.consentId), isNull(consents.withdrawnAt)));
    return { kind: grant.kind, status: 'unsubscribed', changed: true };
  });
}
