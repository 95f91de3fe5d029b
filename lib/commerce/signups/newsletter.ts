import { inArray } from 'drizzle-orm';
import { newsletterSubscriptions } from '@/db/schema';
import type { Database } from '@/db/client';
import type { SiteContext } from '@/lib/platform/auth/credentials';
import { newTimeOrderedId } from '@/lib/platform/ids';
import { recordConsent } from './consent';
import { chooseSignupMarket } from './market';
import { OUTBOX_TOPICS } from './outbox';
import { askToConfirm, heldBack, type MailBudget } from './mail-budget';
import type { SignupInput, SignupOutcome } from './types';

export type NewsletterSignupInput = SignupInput & { source?: string };

/**
 * The Site's newsletter. In one transaction: the consent record (always), the
 * subscription (once per address and Site, by the unique index; an unsubscribed address
 * signing up again is armed again) and, when it is new, one confirmation message in the outbox
 * — unless the mail is over its daily budget (`budget`, mail-budget.ts): then nothing at all.
 * A stock-notification consent never stands in for this one.
 */
export async function subscribeToNewsletter(
  database: Database,
  ctx: Pick<SiteContext, 'site' | 'credentialId'>,
  input: NewsletterSignupInput,
  now = Date.now(),
  budget: MailBudget = {},
): Promise<SignupOutcome> {
  const { site, credentialId } = ctx;
  const choice = await chooseSignupMarket(database, site, { market: input.market, locale: input.locale });
  const source = input.source ?? 'newsletter-subscriptions';

  return heldBack(
    database.transaction(async (tx) => {
      const consentId = await recordConsent(tx, {
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

      const [subscription] = await tx
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
        .returning({ id: newsletterSubscriptions.id });
      if (!subscription) return { created: false, consentId };
      await askToConfirm(tx, budget, {
        topic: OUTBOX_TOPICS.newsletterConfirmation,
        siteId: site.id,
        subscriptionId: subscription.id,
        email: input.email,
        locale: choice.locale,
        marketId: choice.market.id,
        consentId,
        at: now,
        extra: { source },
      });
      return { created: true, subscriptionId: subscription.id, consentId };
    }),
  );
}
