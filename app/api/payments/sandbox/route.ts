import { z } from 'zod';
import { db } from '@/lib/db';
import { problemResponse, zodFieldErrors } from '@/lib/contract/problem-answers';
import { requestIdFor } from '@/lib/http/request-id';
import { endpoint, toProblem, type RouteHandler } from '@/lib/api/route';
import { sandboxPaymentAction } from '@/lib/commerce/orders';
import { stripeSettings } from '@/lib/payments';

export const dynamic = 'force-dynamic';

const Form = z.object({
  sessionId: z.string().regex(/^cs_[0-9A-Za-z]{8,64}$/),
  clientToken: z.string().min(1).max(200),
  action: z.enum(['pay', 'cancel']),
});

// POST /api/payments/sandbox — the sandbox's demo payment page posts here ("pay" or
// "cancel"): it completes or reopens the session through the same path as a provider's
// webhook, then sends the shopper on (303) to the confirmation or back to the checkout.
// Gone once a real provider is configured: a sandbox payment must never make a paid order then.
const act: RouteHandler = async (req) => {
  const requestId = requestIdFor(req);
  const headers = { 'X-Request-Id': requestId, 'Cache-Control': 'no-store' };
  if (stripeSettings())
    return problemResponse({ code: 'not_found', detail: 'The sandbox is off: a real payment provider is configured.', requestId, headers });
  const type = req.headers.get('content-type') ?? '';
  if (!/^(application\/x-www-form-urlencoded|multipart\/form-data)/i.test(type)) {
    return problemResponse({ code: 'unsupported_media_type', detail: "Send the demo payment page's form.", requestId, headers });
  }
  const parsed = Form.safeParse(Object.fromEntries([...(await req.formData()).entries()].map(([k, v]) => [k, String(v)])));
  if (!parsed.success) {
    return problemResponse({
      code: 'validation_failed',
      detail: 'The form is not valid.',
      errors: zodFieldErrors(parsed.error, 'body'),
      requestId,
      headers,
    });
  }
  try {
    const { sessionId, clientToken, action } = parsed.data;
    const result = await sandboxPaymentAction(db(), { sessionId, clientToken, action });
    if (!result) return problemResponse({ code: 'not_found', detail: 'No such sandbox payment.', requestId, headers });
    // The confirmation says plainly that no money moved (demo=1).
    const to = action === 'pay' ? `/checkout/${sessionId}/confirmation?demo=1` : `/checkout/${sessionId}`;
    return new Response(null, { status: 303, headers: { ...headers, Location: to } });
  } catch (error) {
    return toProblem(error, requestId, headers);
  }
};

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = endpoint({ POST: act });
