import { readBodyCapped } from '@/lib/body-limit';
import { env } from '@/lib/env';
import { MAX_BODY_BYTES } from '@/lib/http/body';

/**
 * GET /bench-ceiling?bytes=N — the framework's ceiling for `npm run bench`: a trivial
 * handler of this same app answering a constant body of N bytes (the size of a product
 * answer). `?memory=1` answers the server's memory instead (after a full GC when the
 * benchmark started node with --expose-gc), so the benchmark can tell live heap from
 * memory V8 simply has not handed back. It is a route only in a build made for the
 * benchmark (next.config.mjs: pageExtensions), and answers only on its server (BENCH_CEILING=1).
 *
 * POST is the same for writes: it reads the JSON body it is sent and answers 201 with the
 * constant body, so a write (checkout-session creation) can be set against what Next
 * spends on any POST with a body.
 */
export const dynamic = 'force-dynamic';

const HEAD = '{"data":"';
const TAIL = '"}';
const bodies = new Map<number, string>();

function bodyOf(bytes: number): string {
  let body = bodies.get(bytes);
  if (body === undefined) {
    body = HEAD + 'x'.repeat(bytes - HEAD.length - TAIL.length) + TAIL;
    if (bodies.size > 16) bodies.clear();
    bodies.set(bytes, body);
  }
  return body;
}

export function GET(req: Request): Response {
  if (env().BENCH_CEILING !== '1') return new Response('Not Found', { status: 404, headers: { 'Content-Type': 'text/plain' } });
  const search = new URL(req.url).searchParams;
  if (search.get('memory') === '1') {
    const collect = (globalThis as { gc?: () => void }).gc;
    if (collect) collect();
    return Response.json({ ...process.memoryUsage(), collected: Boolean(collect) }, { headers: { 'Cache-Control': 'no-store' } });
  }
  const asked = Number(search.get('bytes') ?? 5120);
  const bytes = Number.isInteger(asked) ? Math.min(Math.max(asked, 16), 1 << 20) : 5120;
  return new Response(bodyOf(bytes), {
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'private, max-age=60', ETag: '"ceiling"' },
  });
}

export async function POST(req: Request): Promise<Response> {
  if (env().BENCH_CEILING !== '1') return new Response('Not Found', { status: 404, headers: { 'Content-Type': 'text/plain' } });
  // The API's own cap, so the comparison stays fair (and the read bounded).
  const received = (await readBodyCapped(req, MAX_BODY_BYTES).catch(() => null))?.byteLength;
  if (received === undefined) return new Response(null, { status: 413 });
  const asked = Number(new URL(req.url).searchParams.get('bytes') ?? 5120);
  const bytes = Number.isInteger(asked) ? Math.min(Math.max(asked, 16), 1 << 20) : 5120;
  return new Response(bodyOf(bytes), {
    status: 201,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', 'X-Received-Bytes': String(received) },
  });
}
