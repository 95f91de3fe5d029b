import { isSiteApiError, unsubscribeByToken } from '@/lib/site-client';
import { seeOther } from '../../_lib/shop-endpoints';
import { buyerIp } from '../../_lib/shop';

const TOKEN = /^[A-Za-z0-9_-]{16,128}$/;

function text(body: string, status: number): Response {
  return new Response(`${body}\n`, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } });
}

// POST /subscriptions/one-click?token=… — RFC 8058 one-click unsubscribe: the URL of every
// mail's List-Unsubscribe header, which a mail client POSTs (`List-Unsubscribe=One-Click`)
// when the reader presses its own "unsubscribe" button. No page, no cookies, no JavaScript.
export async function POST(req: Request): Promise<Response> {
  const token = new URL(req.url).searchParams.get('token') ?? '';
  if (!TOKEN.test(token)) return text('This unsubscribe link is not valid.', 404);
  try {
    await unsubscribeByToken(token, 'one_click', { buyerIp: await buyerIp() });
    return text('Unsubscribed.', 200);
  } catch (error) {
    if (isSiteApiError(error, 'unknown_token') || isSiteApiError(error, 'validation_failed'))
      return text('This unsubscribe link is not valid.', 404);
    // Anything else is ours: a 503 makes the mail provider try again later.
    return text('Please try again later.', 503);
  }
}

// GET /subscriptions/one-click?token=… — a person (or a mail scanner) opening the header's URL
// gets the page with the button: a GET never unsubscribes.
export async function GET(req: Request): Promise<Response> {
  const token = new URL(req.url).searchParams.get('token') ?? '';
  return seeOther(`/subscriptions/unsubscribe?${new URLSearchParams({ token })}`);
}
