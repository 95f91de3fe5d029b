// The process's memory as process.memoryUsage() says it (no GC forced: the app runs under
// Next's defaults), for the benchmark's breakdown of the bare app's RSS beside the shop's.
export const dynamic = 'force-dynamic';

export function GET() {
  return Response.json(process.memoryUsage(), { headers: { 'Cache-Control': 'no-store' } });
}
