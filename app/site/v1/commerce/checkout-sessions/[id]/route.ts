import { endpoint, route } from '@/lib/api/route';
import { ok } from '@/lib/api/reply';
import * as op from '@/lib/contract/operations/checkout';
import { CheckoutSession } from '@/lib/contract/checkout';
import { getCheckoutSession, sessionEtag, toCheckoutSession, updateCheckoutSession } from '@/lib/commerce/checkout';
import { orderForSession } from '@/lib/commerce/orders';
import { db } from '@/lib/db';

export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = endpoint({
  // GET /site/v1/commerce/checkout-sessions/{id}
  GET: route(op.getCheckoutSession, async ({ site, params }) => {
    const session = await getCheckoutSession(db(), site, params.id);
    const order = session.status === 'completed' ? await orderForSession(db(), site.id, session.id) : null;
    return ok(CheckoutSession.parse(toCheckoutSession(session, site, order)), {
      cache: 'session',
      contentLanguage: session.locale,
      headers: { ETag: sessionEtag(session) },
    });
  }),
  // PATCH /site/v1/commerce/checkout-sessions/{id}
  PATCH: route(op.updateCheckoutSession, async ({ site, params, body, req }) => {
    const session = await updateCheckoutSession(db(), site, params.id, body, { ifMatch: req.headers.get('if-match') });
    return ok(CheckoutSession.parse(toCheckoutSession(session, site)), {
      cache: 'session',
      contentLanguage: session.locale,
      headers: { ETag: sessionEtag(session) },
    });
  }),
});
