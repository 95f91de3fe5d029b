import { filler, JSON_HEADERS } from '../../../../../filler';

// A route handler behind a dynamic segment, at the very path shape of a collection's page.
export async function GET(request, { params }) {
  await params;
  return new Response(filler(new URL(request.url).searchParams), { headers: JSON_HEADERS });
}
