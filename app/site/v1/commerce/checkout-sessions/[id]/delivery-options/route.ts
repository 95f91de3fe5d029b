import { endpoint, route } from '@/lib/api/route';
import { ok } from '@/lib/api/reply';
import * as op from '@/lib/contract/operations/checkout';
import { DeliveryOptions } from '@/lib/contract/checkout';
import { deliveryOptions, sessionEtag, toCheckoutSession } from '@/lib/commerce/checkout';
import { db } from '@/lib/db';

export const dynamic = 'force-dynamic';

// POST /site/v1/commerce/checkout-sessions/{id}/delivery-options
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = endpoint({
  POST: route(op.listDeliveryOptions, async ({ site, params, body }) => {
    const { options, selected, session } = await deliveryOptions(db(), site, params.id, body);
    return ok(DeliveryOptions.parse({ options, selected, session: toCheckoutSession(session, site) }), {
      cache: 'none',
      contentLanguage: session.locale,
      headers: { ETag: sessionEtag(session) },
    });
  }),
});
