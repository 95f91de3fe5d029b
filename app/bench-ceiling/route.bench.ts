import { env } from '@/lib/env';
import { exposedGc } from '@/lib/process-state';

/**
 * GET /bench-ceiling?memory=1 — the server's memory for `npm run bench`, after a full GC
 * when the benchmark started node with --expose-gc, so it can tell live heap from memory V8
 * simply has not handed back. It is a route only in a build made for the benchmark
 * (next.config.mjs: pageExtensions), and answers only on its server (BENCH_CEILING=1). The
 * benchmark's references live in a bare app of their own (scripts/bench/reference-app).
 */
export const dynamic = 'force-dynamic';

export function GET(req: Request): Response {
  if (env().BENCH_CEILING !== '1' || new URL(req.url).searchParams.get('memory') !== '1') {
    return new Response('Not Found', { status: 404, headers: { 'Content-Type': 'text/plain' } });
  }
  const collect = exposedGc();
  if (collect) collect();
  return Response.json({ ...process.memoryUsage(), collected: Boolean(collect) }, { headers: { 'Cache-Control': 'no-store' } });
}
