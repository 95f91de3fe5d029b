import { after } from 'next/server';
import { endpoint, route } from '@/lib/api/route';
import { created } from '@/lib/api/reply';
import * as op from '@/lib/contract/operations/checkout';
import { CheckoutSession } from '@/lib/contract/checkout';
import { maybeSweepExpiredCheckoutSessions, planCheckoutSession, sessionEtag, toCheckoutSession } from '@/lib/commerce/checkout';
import { db } from '@/lib/db';
import { env } from '@/lib/env';

export const dynamic = 'force-dynamic';

// POST /site/v1/commerce/checkout-sessions — the session and its lines are written in one
// batch with the Idempotency-Key's answer (deferredWrites: see lib/platform/idempotency/http.ts).
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = endpoint({
  POST: route({ ...op.createCheckoutSession, deferredWrites: true }, async ({ site, credentialId, body }) => {
    // Now and then a creation also deletes long-expired sessions, after the answer is sent.
    maybeSweepExpiredCheckoutSessions(db(), after);
    const { session, write } = await planCheckoutSession(db(), { site, credentialId }, body, {
      ttlSeconds: env().CHECKOUT_SESSION_TTL_SECONDS,
    });
    return created(CheckoutSession.parse(toCheckoutSession(session, site)), `/site/v1/commerce/checkout-sessions/${session.id}`, {
      contentLanguage: session.locale,
      headers: { ETag: sessionEtag(session) },
      write,
    });
  }),
});
