import { endpoint, route } from '@/lib/api/route';
import { ok } from '@/lib/api/reply';
import { withdrawSubscription } from '@/lib/contract/operations/signups';
import { SubscriptionState } from '@/lib/contract/signups';
import { unsubscribeByToken } from '@/lib/commerce/signups';
import { db } from '@/lib/db';

export const dynamic = 'force-dynamic';

// POST /site/v1/subscriptions/withdrawals
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = endpoint({
  POST: route(withdrawSubscription, async ({ site, body }) => {
    const state = await unsubscribeByToken(db(), site.id, body.token, body.method);
    return ok(SubscriptionState.parse(state), { cache: 'none' });
  }),
});
