import { endpoint, route } from '@/lib/http/route';
import { accepted } from '@/lib/http/reply';
import { createNewsletterSubscription } from '@/lib/contract/operations/signups';
import { SignupReceipt } from '@/lib/contract/signups';
import { requireConsent, subscribeToNewsletter } from '@/lib/commerce/signups';
import { db } from '@/lib/db';

export const dynamic = 'force-dynamic';

// POST /site/v1/newsletter/subscriptions
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = endpoint({
  POST: route({ ...createNewsletterSubscription, precheck: requireConsent }, async ({ site, credentialId, body }) => {
    await subscribeToNewsletter(db(), { site, credentialId }, body);
    // New or known address: the same answer, so the endpoint cannot be used to probe subscribers.
    return accepted(SignupReceipt.parse({ status: 'accepted' }));
  }),
});
