import { inArray } from 'drizzle-orm';
import { newsletterSubscriptions } from '@/db/schema';
import { writeBatchWith, type Database, type Riders, type Value } from '@/db';
import type { SiteContext } from '@/lib/platform/auth/credentials';
import { newTimeOrderedId } from '@/lib/platform/ids';
import { consentStatement } from './consent';
import { chooseSignupMarket } from './market';
import { confirmationStatement, noteQueued, OUTBOX_TOPICS } from './outbox';
import { isMailBudgetSpent, mailBudgetStatements, type MailBudget } from './mail-budget';
import type { SignupInput, SignupOutcome } from './types';

export type NewsletterSignupInput = SignupInput & { source?: string };

/**
 * The Site's newsletter: the consent record (always), the subscription (once per address and
 * Site, by the unique index; an unsubscribed address signing up again is armed again) and,
 * when it is new, one confirmation message in the outbox — unless the mail is over its daily
 * budget (`budget`, mail-budget.ts): then nothing at all. A stock-notification consent never
 * stands in for this one.
 *
 * All of it is one write batch: one transaction, and one request to a database over a
 * network. What depends on the subscription (the budget's counters, the message) finds it
 * in SQL by the consent this signup records, which only a new or re-armed subscription
 * carries; a budget spent fails the batch's last check, which undoes it all. `riders` are
 * another layer's statements the batch carries (the shopper's write-budget claim, which
 * fails it the same way).
 */
export async function subscribeToNewsletter(
  database: Database,
  ctx: Pick<SiteContext, 'site' | 'credentialId'>,
  input: NewsletterSignupInput,
  now = Date.now(),
  budget: MailBudget = {},
  riders: Riders | null = null,
): Promise<SignupOutcome> {
  const { site, credentialId } = ctx;
  const choice = await chooseSignupMarket(database, site, { market: input.market, locale: input.locale });
  const source = input.source ?? 'newsletter-subscriptions';
  const consent = consentStatement(database, {
    siteId: site.id,
    purpose: 'newsletter',
    email: input.email,
    text: input.consent.text,
    version: input.consent.version,
    locale: choice.locale,
    source,
    credentialId,
    at: now,
  });
  const consentId = consent.id;
  const subscription = database
    .insert(newsletterSubscriptions)
    .values({
      id: newTimeOrderedId('nls', now),
      siteId: site.id,
      email: input.email,
      status: 'pending_confirmation',
      consentId,
      locale: choice.locale,
      marketId: choice.market.id,
      source,
      createdAt: now,
    })
    .onConflictDoUpdate({
      target: [newsletterSubscriptions.siteId, newsletterSubscriptions.email],
      set: { status: 'pending_confirmation', consentId, locale: choice.locale, marketId: choice.market.id, source },
      setWhere: inArray(newsletterSubscriptions.status, ['unsubscribed']),
    })
    .returning({ id: newsletterSubscriptions.id })
    .toSQL();
  // The subscription this signup armed (inserted or re-armed: it carries this consent), if any.
  const armed = {
    sql: 'SELECT id FROM newsletter_subscriptions WHERE site_id = ? AND email = ? AND consent_id = ?',
    args: [site.id, input.email, consentId],
  };
  let results;
  try {
    results = await writeBatchWith(database, riders, [
      consent.statement,
      { sql: subscription.sql, args: subscription.params as Value[] },
      ...mailBudgetStatements({ siteId: site.id, address: input.email, now, budget }, armed),
      confirmationStatement(
        {
          topic: OUTBOX_TOPICS.newsletterConfirmation,
          siteId: site.id,
          email: input.email,
          locale: choice.locale,
          marketId: choice.market.id,
          consentId,
          at: now,
          extra: { source },
        },
        armed,
      ),
    ]);
  } catch (error) {
    if (isMailBudgetSpent(error)) return { created: false, held: true };
    throw error;
  }
  const subscriptionId = results[1]?.rows[0]?.id;
  if (subscriptionId === undefined || subscriptionId === null) return { created: false, consentId };
  noteQueued();
  return { created: true, subscriptionId: String(subscriptionId), consentId };
}
