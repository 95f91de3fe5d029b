import { and, eq, inArray } from 'drizzle-orm';
import { notificationFlows, productVariants, products, stockSubscriptions } from '@/db/schema';
import type { Database } from '@/db/client';
import type { SiteContext } from '@/lib/platform/auth/credentials';
import { DomainError, NotFound } from '@/lib/platform/errors';
import { newTimeOrderedId } from '@/lib/platform/ids';
import { isPublished } from '../published';
import { recordConsent } from './consent';
import { chooseSignupMarket } from './market';
import { OUTBOX_TOPICS } from './outbox';
import { askToConfirm, heldBack, type MailBudget } from './mail-budget';
import type { SignupInput, SignupOutcome } from './types';

export type StockSignupInput = SignupInput & { variantId: string; flow?: string };

// A subscription that already ran its course (or was left) is armed again by a new signup;
// one that is pending or active is left alone, so repeats never mail the address again.
const REARMABLE = ['unsubscribed', 'notified'] as const;

/**
 * A back-in-stock notification for one published variant of the caller's Site. In one
 * transaction: the consent record (always), the subscription (only if the address is not
 * already subscribed to this variant and flow, decided by the unique index, not by a read)
 * and, for a new subscription, exactly one confirmation message in the outbox — unless the
 * mail is over its daily budget (`budget`, mail-budget.ts): then nothing at all.
 */
export async function subscribeToStockNotifications(
  database: Database,
  ctx: Pick<SiteContext, 'site' | 'credentialId'>,
  input: StockSignupInput,
  now = Date.now(),
  budget: MailBudget = {},
): Promise<SignupOutcome> {
  const { site, credentialId } = ctx;
  const choice = await chooseSignupMarket(database, site, { market: input.market, locale: input.locale });

  return heldBack(
    database.transaction(async (tx) => {
      const [variant] = await tx
        .select({ id: productVariants.id, productHandle: products.handle })
        .from(productVariants)
        .innerJoin(products, eq(products.id, productVariants.productId))
        .where(and(eq(productVariants.id, input.variantId), eq(productVariants.siteId, site.id), isPublished(site.id)));
      if (!variant) throw new NotFound('The variant');

      const [flow] = await tx
        .select({
          id: notificationFlows.id,
          handle: notificationFlows.handle,
          enabled: notificationFlows.enabled,
          channel: notificationFlows.channel,
        })
        .from(notificationFlows)
        .where(
          and(
            eq(notificationFlows.siteId, site.id),
            eq(notificationFlows.kind, 'stock'),
            input.flow === undefined ? eq(notificationFlows.isDefault, true) : eq(notificationFlows.handle, input.flow),
          ),
        );
      // The signup carries an e-mail address only, so only an enabled e-mail flow can serve it.
      if (!flow || !flow.enabled || flow.channel !== 'email') {
        throw new DomainError(
          'unknown_flow',
          input.flow === undefined
            ? 'The Site has no enabled default stock-notification flow.'
            : 'The Site has no enabled e-mail stock-notification flow with that handle.',
          {
            errors: [
              {
                pointer: '/flow',
                code: 'unknown_flow',
                detail: 'Use the handle of an enabled e-mail stock-notification flow of this Site, or leave it out.',
              },
            ],
          },
        );
      }

      const consentId = await recordConsent(tx, {
        siteId: site.id,
        purpose: 'stock_notification',
        email: input.email,
        text: input.consent.text,
        version: input.consent.version,
        locale: choice.locale,
        source: 'stock-subscriptions',
        credentialId,
        at: now,
      });

      const [subscription] = await tx
        .insert(stockSubscriptions)
        .values({
          id: newTimeOrderedId('sub', now),
          siteId: site.id,
          variantId: variant.id,
          flowId: flow.id,
          email: input.email,
          status: 'pending_confirmation',
          consentId,
          locale: choice.locale,
          marketId: choice.market.id,
          createdAt: now,
        })
        .onConflictDoUpdate({
          target: [stockSubscriptions.siteId, stockSubscriptions.variantId, stockSubscriptions.flowId, stockSubscriptions.email],
          set: { status: 'pending_confirmation', consentId, locale: choice.locale, marketId: choice.market.id },
          setWhere: inArray(stockSubscriptions.status, [...REARMABLE]),
        })
        .returning({ id: stockSubscriptions.id });
      if (!subscription) return { created: false, consentId };
      await askToConfirm(tx, budget, {
        topic: OUTBOX_TOPICS.stockConfirmation,
        siteId: site.id,
        subscriptionId: subscription.id,
        email: input.email,
        locale: choice.locale,
        marketId: choice.market.id,
        consentId,
        at: now,
        extra: {
          flow: { id: flow.id, handle: flow.handle, channel: flow.channel },
          variantId: variant.id,
          productHandle: variant.productHandle,
        },
      });
      return { created: true, subscriptionId: subscription.id, consentId };
    }),
  );
}
