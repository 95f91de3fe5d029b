import { filler, JSON_HEADERS } from '../filler';

// A POST route that parses the JSON body it is sent: the reference for writes.
export async function POST(request) {
  const body = await request.json();
  if (body === null || typeof body !== 'object') return new Response(null, { status: 400 });
  return new Response(filler(new URL(request.url).searchParams), { status: 201, headers: JSON_HEADERS });
}
