import { endpoint, route } from '@/lib/api/route';
import { accepted } from '@/lib/api/reply';
import { createStockSubscription } from '@/lib/contract/operations/signups';
import { SignupReceipt } from '@/lib/contract/signups';
import { requireConsent, subscribeToStockNotifications } from '@/lib/commerce/signups';
import { db } from '@/lib/db';
import { env } from '@/lib/env';

export const dynamic = 'force-dynamic';

// POST /site/v1/commerce/stock-subscriptions
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = endpoint({
  POST: route({ ...createStockSubscription, precheck: requireConsent }, async ({ site, credentialId, body, buyerIp }) => {
    const { SIGNUP_MAILS_PER_MAILBOX: perMailbox, SIGNUP_MAILS_PER_SHOPPER: perShopper, RATE_LIMIT_KEY: secret } = env();
    await subscribeToStockNotifications(db(), { site, credentialId }, body, Date.now(), {
      shopper: buyerIp,
      perMailbox,
      perShopper,
      secret,
    });
    // New, known or over its mail budget: the same answer, so the endpoint cannot be used to probe subscribers.
    return accepted(SignupReceipt.parse({ status: 'accepted' }));
  }),
});
