import { endpoint, route } from '@/lib/api/route';
import { ok } from '@/lib/api/reply';
import * as op from '@/lib/contract/operations/checkout';
import { PaymentPreparation } from '@/lib/contract/checkout';
import { paymentView, prepareCheckoutPayment, sessionEtag, toCheckoutSession } from '@/lib/commerce/checkout';
import { db } from '@/lib/db';

export const dynamic = 'force-dynamic';

// POST /site/v1/commerce/checkout-sessions/{id}/prepare-payment
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = endpoint({
  POST: route(op.prepareCheckoutPayment, async ({ site, params, body }) => {
    const { session, payment } = await prepareCheckoutPayment(db(), site, params.id, body);
    return ok(PaymentPreparation.parse({ session: toCheckoutSession(session, site), payment: paymentView(payment, session.currency) }), {
      cache: 'none',
      contentLanguage: session.locale,
      headers: { ETag: sessionEtag(session) },
    });
  }),
});
