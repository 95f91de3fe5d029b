import { endpoint, route } from '@/lib/http/route';
import { created } from '@/lib/http/reply';
import * as op from '@/lib/contract/operations/checkout';
import { CheckoutSession } from '@/lib/contract/checkout';
import { createCheckoutSession, sessionEtag, toCheckoutSession } from '@/lib/commerce/checkout';
import { db } from '@/lib/db';
import { env } from '@/lib/env';

// POST /site/v1/commerce/checkout-sessions
export const { GET, HEAD, POST, PUT, PATCH, DELETE } = endpoint({
  POST: route(op.createCheckoutSession, async ({ site, credentialId, body }) => {
    const session = await createCheckoutSession(db(), { site, credentialId }, body, { ttlSeconds: env().CHECKOUT_SESSION_TTL_SECONDS });
    return created(CheckoutSession.parse(toCheckoutSession(session, site)), `/site/v1/commerce/checkout-sessions/${session.id}`, {
      contentLanguage: session.locale,
      headers: { ETag: sessionEtag(session) },
    });
  }),
});
