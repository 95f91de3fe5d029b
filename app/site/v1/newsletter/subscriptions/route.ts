import { endpoint, route } from '@/lib/api/route';
import { accepted } from '@/lib/api/reply';
import { createNewsletterSubscription } from '@/lib/contract/operations/signups';
import { SignupReceipt } from '@/lib/contract/signups';
import { requireConsent, subscribeToNewsletter } from '@/lib/commerce/signups';
import { db } from '@/lib/db';
import { env } from '@/lib/env';

export const dynamic = 'force-dynamic';

// POST /site/v1/newsletter/subscriptions
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = endpoint({
  POST: route(
    { ...createNewsletterSubscription, precheck: requireConsent, claimInWrite: true },
    async ({ site, credentialId, body, buyerIp, riders }) => {
      const { SIGNUP_MAILS_PER_MAILBOX: perMailbox, SIGNUP_MAILS_PER_SHOPPER: perShopper, RATE_LIMIT_KEY: secret } = env();
      await subscribeToNewsletter(
        db(),
        { site, credentialId },
        body,
        Date.now(),
        { shopper: buyerIp, perMailbox, perShopper, secret },
        riders,
      );
      // New, known or over its mail budget: the same answer, so the endpoint cannot be used to probe subscribers.
      return accepted(SignupReceipt.parse({ status: 'accepted' }));
    },
  ),
});
