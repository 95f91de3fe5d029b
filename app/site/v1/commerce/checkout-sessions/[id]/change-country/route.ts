import { endpoint, route } from '@/lib/api/route';
import { ok } from '@/lib/api/reply';
import * as op from '@/lib/contract/operations/checkout';
import { CountryChangeQuote } from '@/lib/contract/checkout';
import { changeCheckoutCountry, sessionEtag, toCheckoutSession } from '@/lib/commerce/checkout';
import { db } from '@/lib/db';

export const dynamic = 'force-dynamic';

// POST /site/v1/commerce/checkout-sessions/{id}/change-country
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = endpoint({
  POST: route(op.changeCheckoutCountry, async ({ site, params, body }) => {
    const { session, quote } = await changeCheckoutCountry(db(), site, params.id, body.country);
    return ok(CountryChangeQuote.parse({ session: toCheckoutSession(session, site), quote }), {
      cache: 'none',
      contentLanguage: session.locale,
      headers: { ETag: sessionEtag(session) },
    });
  }),
});
