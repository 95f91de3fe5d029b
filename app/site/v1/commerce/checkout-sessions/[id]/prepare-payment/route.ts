import { endpoint, route } from '@/lib/api/route';
import { ok } from '@/lib/api/reply';
import * as op from '@/lib/contract/operations/checkout';
import { PaymentPreparation } from '@/lib/contract/checkout';
import { paymentView, prepareCheckoutPayment, sessionEtag, toCheckoutSession } from '@/lib/commerce/checkout';
import { db } from '@/lib/db';
import { env } from '@/lib/env';
import { publicOrigin } from '@/lib/http/links';
import { paymentProvider } from '@/lib/payments';

export const dynamic = 'force-dynamic';

// POST /site/v1/commerce/checkout-sessions/{id}/prepare-payment
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = endpoint({
  POST: route(op.prepareCheckoutPayment, async ({ site, params, body, req }) => {
    const { session, payment } = await prepareCheckoutPayment(db(), site, params.id, body, {
      provider: paymentProvider(),
      origin: publicOrigin(req, env().STOREFRONT_ORIGIN),
    });
    return ok(PaymentPreparation.parse({ session: toCheckoutSession(session, site), payment: paymentView(payment, session.currency) }), {
      cache: 'none',
      contentLanguage: session.locale,
      headers: { ETag: sessionEtag(session) },
    });
  }),
});
