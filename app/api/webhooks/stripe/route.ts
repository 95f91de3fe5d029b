import { db } from '@/lib/db';
import { problemResponse } from '@/lib/contract/problem-answers';
import { requestIdFor } from '@/lib/http/request-id';
import { endpoint, toProblem, type RouteHandler } from '@/lib/api/route';
import { stripePaymentEvent, verifyStripeEvent } from '@/lib/commerce/checkout';
import { recordPaymentEvent } from '@/lib/commerce/orders';
import { stripeSettings } from '@/lib/payments';
import { BodyTooLarge, readTextCapped } from '@/lib/http/body-limit';
import { logger } from '@/lib/platform/observability/logger';

export const dynamic = 'force-dynamic';

/** Stripe's events are a few KB; anything far larger is not one. */
const MAX_BODY_BYTES = 256 * 1024;

// POST /api/webhooks/stripe — Stripe's word that a payment succeeded or failed
// (docs/payments.md). Not part of /site/v1: no Site credential; the signature is the proof.
// 200 for every verified event, also one about a session we do not know or that expired
// (recorded and logged: Stripe would otherwise retry it for days); 400 for a bad signature.
const receive: RouteHandler = async (req) => {
  const requestId = requestIdFor(req);
  const headers = { 'X-Request-Id': requestId, 'Cache-Control': 'no-store' };
  const settings = stripeSettings();
  if (!settings) return problemResponse({ code: 'not_found', detail: 'Stripe is not configured here.', requestId, headers });
  let payload: string;
  try {
    // The one body reader: it stops at the cap while the body streams in.
    payload = (await readTextCapped(req, MAX_BODY_BYTES)) ?? '';
  } catch (error) {
    if (!(error instanceof BodyTooLarge)) throw error;
    return problemResponse({
      code: 'payload_too_large',
      detail: `A webhook event is at most ${MAX_BODY_BYTES} bytes.`,
      requestId,
      headers,
    });
  }
  let event;
  try {
    event = await verifyStripeEvent(settings, payload, req.headers.get('stripe-signature'));
  } catch {
    return problemResponse({
      code: 'invalid_signature',
      detail: 'The Stripe-Signature header does not verify with the webhook secret.',
      requestId,
      headers,
    });
  }
  try {
    const result = await recordPaymentEvent(db(), stripePaymentEvent(event));
    if (result.outcome !== 'completed' && result.outcome !== 'reopened' && result.outcome !== 'ignored') {
      logger().warn(
        { requestId, event: event.id, type: event.type, session: result.sessionId ?? null, outcome: result.outcome },
        'stripe event not applied',
      );
    } else if (result.order) {
      logger().info(
        { requestId, event: event.id, order: result.order.number, oversold: result.order.oversold },
        'stripe event: order recorded',
      );
    }
    return Response.json({ received: true, outcome: result.outcome, ...(result.order ? { order: result.order.number } : {}) }, { headers });
  } catch (error) {
    // Not recorded (the transaction rolled back): Stripe retries it.
    return toProblem(error, requestId, headers);
  }
};

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = endpoint({ POST: receive });
