import { z } from 'zod';
import { BodyTooLarge, readTextCapped } from '@/lib/body-limit';
import { track } from '../../_lib/analytics';
import { sameOrigin } from '../../_lib/bff';

const handle = z.string().regex(/^[a-z0-9][a-z0-9-]{0,199}$/);

/** Views the pages report; the server adds the anonymous id and the time. */
const ViewEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('page_view'), path: z.string() }).strict(),
  z.object({ type: z.literal('product_view'), path: z.string(), productHandle: handle, variantId: z.string().regex(/^[A-Za-z0-9_-]{1,80}$/).optional() }).strict(),
  z.object({ type: z.literal('collection_view'), path: z.string(), collectionHandle: handle }).strict(),
]);

const Batch = z.object({ events: z.array(ViewEvent).min(1).max(10) }).strict();

/** Ten views with the longest fields allowed are under 9 KB; anything larger is not a batch. */
const MAX_EVENTS_BYTES = 16 * 1024;

// POST /shop-api/events — page, product and collection views from the shop's own pages.
export async function POST(req: Request): Promise<Response> {
  if (!sameOrigin(req)) return new Response(null, { status: 403 });
  // Anyone can send an Origin header: the size cap, not the check above, bounds the read.
  let text: string | null;
  try {
    text = await readTextCapped(req, MAX_EVENTS_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLarge) return new Response(null, { status: 413 });
    throw error;
  }
  const parsed = Batch.safeParse(parseJson(text));
  if (!parsed.success) return new Response(null, { status: 400 });
  // The path only, never the query string: a query may carry whatever a shopper typed.
  const events = parsed.data.events.map((event) => ({ ...event, path: event.path.split(/[?#]/)[0] ?? '/' }));
  if (events.some((e) => !e.path.startsWith('/') || e.path.length > 512)) return new Response(null, { status: 400 });
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
