import { env } from '@/lib/env';

/**
 * GET /bench-static — the "static Next page" `npm run bench` compares the storefront's
 * product page with: an HTML document prerendered at build time and served from Next's
 * static cache, with nothing rendered per request. It is a route handler rather than a
 * page so that no layout of the shop is part of what it measures. The benchmark builds
 * into its own dist dir with BENCH_CEILING=1; no other build has this route (pageExtensions).
 */
export const dynamic = 'force-static';

/** About the size of a storefront product page (HTML with its inlined RSC payload). */
const BYTES = 42 * 1024;

function page(): string {
  const head = '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Static page</title></head><body><main>';
  const tail = '</main></body></html>';
  const item = (i: number) => `<section><h2>Item ${i}</h2><p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor.</p></section>`;
  let body = '';
  for (let i = 0; head.length + body.length + tail.length < BYTES; i += 1) body += item(i);
  return head + body + tail;
}

export function GET(): Response {
  if (env().BENCH_CEILING !== '1') return new Response('Not Found', { status: 404, headers: { 'Content-Type': 'text/plain' } });
  return new Response(page(), { headers: { 'Content-Type': 'text/html; charset=utf-8' } });
}
