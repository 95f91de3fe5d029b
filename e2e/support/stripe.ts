// A small local stand-in for the few Stripe API endpoints the adapter calls (Stripe itself
// cannot be reached from the tests), and events signed the way Stripe signs them, with the
// SDK's own test-header helper.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

export type StripeCall = {
  method: string;
  path: string;
  idempotencyKey: string | null;
  authorization: string | null;
  form: URLSearchParams;
};
type CheckoutSession = Record<string, unknown> & {
  id: string;
  url: string;
  metadata: Record<string, string>;
  amount_total: number;
  currency: string;
  success_url: string;
};

export type StripeStandIn = {
  url: string;
  calls: StripeCall[];
  sessions: Map<string, CheckoutSession>;
  /** Where its hosted page sends the signed `checkout.session.completed` when the shopper "pays" there. */
  webhookUrl: string | null;
  stop(): Promise<void>;
};

export const STRIPE_TEST_SECRET_KEY = 'sk_test_standin_0123456789';
export const STRIPE_TEST_WEBHOOK_SECRET = 'whsec_standin_0123456789abcdef';

const read = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

/**
 * POST /v1/checkout/sessions answers a Checkout Session as Stripe would (the same one again
 * for the same Idempotency-Key); GET /c/pay/{id} is its "hosted page": it sends the signed
 * completion event to `webhookUrl` and redirects to the session's success_url, as paying
 * at Stripe does. Anything else is answered 404 in Stripe's error shape.
 */
export async function stripeStandIn(): Promise<StripeStandIn> {
  const calls: StripeCall[] = [];
  const sessions = new Map<string, CheckoutSession>();
  const byKey = new Map<string, CheckoutSession>();
  const standIn: StripeStandIn = {
    url: '',
    calls,
    sessions,
    webhookUrl: null,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer(async (req, res) => {
    const body = await read(req);
    const path = (req.url ?? '/').split('?')[0]!;
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json', 'Request-Id': `req_${randomBytes(6).toString('hex')}` });
      res.end(JSON.stringify(value));
    };
    if (req.method === 'POST' && path === '/v1/checkout/sessions') {
      const form = new URLSearchParams(body);
      const key = req.headers['idempotency-key'] as string | undefined;
      calls.push({ method: 'POST', path, idempotencyKey: key ?? null, authorization: req.headers.authorization ?? null, form });
      if (key && byKey.has(key)) return json(200, byKey.get(key));
      const id = `cs_test_${randomBytes(12).toString('hex')}`;
      const metadata: Record<string, string> = {};
      for (const [k, v] of form) {
        const m = /^metadata\[(.+)\]$/.exec(k);
        if (m) metadata[m[1]!] = v;
      }
      const session: CheckoutSession = {
        id,
        object: 'checkout.session',
        mode: form.get('mode'),
        status: 'open',
        payment_status: 'unpaid',
        client_reference_id: form.get('client_reference_id'),
        customer_email: form.get('customer_email'),
        amount_total: Number(form.get('line_items[0][price_data][unit_amount]')) * Number(form.get('line_items[0][quantity]') ?? 1),
        currency: form.get('line_items[0][price_data][currency]') ?? '',
        metadata,
        success_url: form.get('success_url') ?? '',
        cancel_url: form.get('cancel_url'),
        expires_at: Number(form.get('expires_at')),
        url: `${standIn.url}/c/pay/${id}`,
        livemode: false,
      };
      sessions.set(id, session);
      if (key) byKey.set(key, session);
      return json(200, session);
    }
    const pay = /^\/c\/pay\/(cs_test_[0-9a-f]+)$/.exec(path);
    if (req.method === 'GET' && pay && sessions.has(pay[1]!) && standIn.webhookUrl) {
      const session = sessions.get(pay[1]!)!;
      const event = stripeEvent('checkout.session.completed', { ...session, status: 'complete', payment_status: 'paid' });
      const delivered = await sendStripeEvent(standIn.webhookUrl, event);
      if (delivered.status !== 200) return json(502, { error: { message: `webhook answered ${delivered.status}` } });
      res.writeHead(303, { Location: session.success_url });
      return res.end();
    }
    json(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${path}).` } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  standIn.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return standIn;
}

/** An event as Stripe sends it (the fields the adapter reads, and Stripe's envelope). */
export function stripeEvent(type: string, object: Record<string, unknown>, id = `evt_${randomBytes(12).toString('hex')}`) {
  return {
    id,
    object: 'event',
    api_version: '2025-01-01',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    type,
    data: { object },
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
  };
}

/** The Stripe-Signature header for `payload`, made by the SDK's own helper. */
export function stripeSignature(payload: string, secret = STRIPE_TEST_WEBHOOK_SECRET): string {
  return new Stripe(STRIPE_TEST_SECRET_KEY).webhooks.generateTestHeaderString({ payload, secret });
}

/** POSTs a signed event to a webhook URL, as Stripe's delivery does. */
export async function sendStripeEvent(
  url: string,
  event: object,
  secret = STRIPE_TEST_WEBHOOK_SECRET,
): Promise<{ status: number; body: string }> {
  const payload = JSON.stringify(event);
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Stripe-Signature': stripeSignature(payload, secret) },
    body: payload,
  });
  return { status: res.status, body: await res.text() };
}
