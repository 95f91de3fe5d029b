import { endpoint, route } from '@/lib/api/route';
import { ok } from '@/lib/api/reply';
import { confirmSubscription } from '@/lib/contract/operations/signups';
import { SubscriptionState } from '@/lib/contract/signups';
import { confirmSubscription as confirm } from '@/lib/commerce/signups';
import { db } from '@/lib/db';

export const dynamic = 'force-dynamic';

// POST /site/v1/subscriptions/confirmations
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = endpoint({
  POST: route(confirmSubscription, async ({ site, body }) => {
    const state = await confirm(db(), site.id, body.token);
    return ok(SubscriptionState.parse(state), { cache: 'none' });
  }),
});
