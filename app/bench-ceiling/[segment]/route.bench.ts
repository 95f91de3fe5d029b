/**
 * GET|POST /bench-ceiling/{segment}: the same trivial handler as /bench-ceiling, behind a
 * dynamic segment, so the benchmark can tell what Next itself spends on a dynamic route
 * (matching it, building its params) from what product-by-handle adds to that. Like
 * /bench-ceiling it exists only when the benchmark started the server: 404 everywhere else.
 */
export const dynamic = 'force-dynamic';
export { GET, POST } from '../route.bench';
