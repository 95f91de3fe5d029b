import { z } from 'zod';
import { BodyTooLarge, readTextCapped } from '@/lib/http/body-limit';
import { track } from '../../_lib/analytics';
import { crossSite, refusal, sameOrigin } from '../../_lib/shop-endpoints';

const handle = z.string().regex(/^[a-z0-9][a-z0-9-]{0,199}$/);

/** Views the pages report; the server adds the anonymous id and the time. */
const ViewEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('page_view'), path: z.string() }).strict(),
  z
    .object({
      type: z.literal('product_view'),
      path: z.string(),
      productHandle: handle,
      variantId: z
        .string()
        .regex(/^[A-Za-z0-9_-]{1,80}$/)
        .optional(),
    })
    .strict(),
  z.object({ type: z.literal('collection_view'), path: z.string(), collectionHandle: handle }).strict(),
]);

const Batch = z.object({ events: z.array(ViewEvent).min(1).max(10) }).strict();

/** Ten views with the longest fields allowed are under 9 KB; anything larger is not a batch. */
const MAX_EVENTS_BYTES = 16 * 1024;

// POST /shop-api/events — page, product and collection views from the shop's own pages.
export async function POST(req: Request): Promise<Response> {
  if (!sameOrigin(req)) return crossSite();
  // Anyone can send an Origin header: the size cap, not the check above, bounds the read.
  let text: string | null;
  try {
    text = await readTextCapped(req, MAX_EVENTS_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLarge) return refusal(413, 'payload_too_large', `A batch of views is at most ${MAX_EVENTS_BYTES} bytes.`);
    throw error;
  }
  const parsed = Batch.safeParse(parseJson(text));
  if (!parsed.success) return refusal(400, 'validation_failed', 'Send {"events": [...]}: 1–10 page, product or collection views.');
  // The path only, never the query string: a query may carry whatever a shopper typed.
  const events = parsed.data.events.map((event) => ({ ...event, path: event.path.split(/[?#]/)[0] ?? '/' }));
  if (events.some((e) => !e.path.startsWith('/') || e.path.length > 512))
    return refusal(400, 'validation_failed', "A view's path starts with / and is at most 512 characters.");
  await track(events);
  return new Response(null, { status: 204, headers: { 'Cache-Control': 'no-store' } });
}

function parseJson(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
