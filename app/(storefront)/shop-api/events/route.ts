import { z } from 'zod';
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

// POST /shop-api/events — page, product and collection views from the shop's own pages.
export async function POST(req: Request): Promise<Response> {
  if (!sameOrigin(req)) return new Response(null, { status: 403 });
  const parsed = Batch.safeParse(await req.json().catch(() => null));
  if (!parsed.success) return new Response(null, { status: 400 });
  // The path only, never the query string: a query may carry whatever a shopper typed.
  const events = parsed.data.events.map((event) => ({ ...event, path: event.path.split(/[?#]/)[0] ?? '/' }));
  if (events.some((e) => !e.path.startsWith('/') || e.path.length > 512)) return new Response(null, { status: 400 });
  await track(events);
  return new Response(null, { status: 204, headers: { 'Cache-Control': 'no-store' } });
}
