import { filler, JSON_HEADERS } from '../filler';

// A route handler at a static path: the reference for reads whose path has no dynamic segment.
export function GET(request) {
  return new Response(filler(new URL(request.url).searchParams), { headers: JSON_HEADERS });
}
