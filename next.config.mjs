import { randomBytes } from 'node:crypto';
import { PHASE_DEVELOPMENT_SERVER, PHASE_PRODUCTION_BUILD } from 'next/constants.js';
import { API_POLICY, HSTS } from './lib/security/content-security-policy.mjs';
import { copyDocsAssets } from './app/docs/assets.mjs';

/**
 * Headers every answer gets, whatever produced it (route, page, static file, error). Pages
 * get their Content-Security-Policy from proxy.ts (a nonce) or from the page cache (hashes);
 * see docs/security-headers.md.
 */
const EVERYWHERE = [
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  // For browsers that predate CSP's frame-ancestors; the policies say 'none' as well.
  { key: 'X-Frame-Options', value: 'DENY' },
  { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
  // The shop uses none of these; a script that got in could not either.
  {
    key: 'Permissions-Policy',
    value:
      'camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), hid=(), midi=(), display-capture=(), browsing-topics=()',
  },
];

/**
 * PAGE_CACHE_MB: the product-page cache's size (docs/operating.md), read when the server
 * starts. A whole number of megabytes from 0 (no page cache) to 4096; anything else stops
 * the server with a message rather than silently meaning the default.
 */
function pageCacheBytes() {
  const raw = process.env.PAGE_CACHE_MB;
  if (raw === undefined || raw === '') return 16 * 1024 * 1024;
  if (!/^\d{1,4}$/.test(raw) || Number(raw) > 4096)
    throw new Error(`PAGE_CACHE_MB must be a whole number of megabytes from 0 to 4096, not ${JSON.stringify(raw)}`);
  return Number(raw) * 1024 * 1024;
}

/**
 * A name for this build. Product pages kept in the database carry it (their HTML names
 * this build's script and style files), so a deploy never serves another build's pages.
 * Inlined into the server's code when it is built (`env` below).
 */
const BUILD_NAME = randomBytes(9).toString('base64url');

/** @type {import('next').NextConfig} */
const nextConfig = {
  // The libSQL driver ships native code; keep it out of the server bundle.
  // prom-client and OpenTelemetry's SDK keep one registry / provider per process: one copy,
  // not one per bundle (pino and pino-pretty Next keeps outside by itself). zod and
  // drizzle-orm likewise: bundled, every route's bundle carried and compiled a copy of its own
  // (up to six per process; scripts/bench/HISTORY.md).
  serverExternalPackages: [
    '@libsql/client',
    'libsql',
    'zod',
    'drizzle-orm',
    'prom-client',
    '@opentelemetry/api',
    '@opentelemetry/sdk-trace-node',
    '@opentelemetry/sdk-trace-base',
    '@opentelemetry/exporter-trace-otlp-http',
    '@opentelemetry/resources',
  ],
  // Lets two builds (e.g. a benchmark and a test run) live side by side.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  poweredByHeader: false,
  env: { SHOP_BUILD_ID: BUILD_NAME },
  // The benchmark's memory probe (app/bench-ceiling/route.bench.ts) is a route only in a build
  // made for the benchmark (BENCH_CEILING=1 when it builds); every other build leaves it out.
  pageExtensions: process.env.BENCH_CEILING === '1' ? ['tsx', 'ts', 'bench.ts'] : ['tsx', 'ts'],
  async headers() {
    return [
      { source: '/:path*', headers: EVERYWHERE },
      // The request came over HTTPS (the TLS-terminating proxy says so): a browser that saw
      // this keeps to HTTPS for the shop's host. Over plain HTTP browsers ignore it anyway.
      {
        source: '/:path*',
        has: [{ type: 'header', key: 'x-forwarded-proto', value: '\\s*https\\s*(?:,.*)?' }],
        headers: [{ key: 'Strict-Transport-Security', value: HSTS }],
      },
      { source: '/site/v1/:path*', headers: [{ key: 'Content-Security-Policy', value: API_POLICY }] },
      // The storefront's own JSON endpoints are no documents either.
      { source: '/shop-api/:path*', headers: [{ key: 'Content-Security-Policy', value: API_POLICY }] },
      // The catalog's own images (public/products, public/collections): a shopper's browser
      // asks for them once an hour at most, not on every view; a file changed by a deploy shows
      // within the hour (docs/catalog.md).
      {
        source: '/:dir(products|collections)/:file([^/]+\\.(?:svg|png|jpe?g|webp|avif|gif))',
        headers: [{ key: 'Cache-Control', value: 'public, max-age=3600, stale-while-revalidate=86400' }],
      },
      // The reference's files carry the renderer's version in their names (app/docs/assets.mjs).
      { source: '/docs/assets/:file*', headers: [{ key: 'Cache-Control', value: 'public, max-age=31536000, immutable' }] },
    ];
  },
  reactStrictMode: true,
  typedRoutes: false,
  // Product pages are cached per (origin, market, locale, catalog version, handle), by Next's
  // page cache with a hash-based Content-Security-Policy on every page, registered at startup
  // (lib/security/page-cache-handler.mjs, from instrumentation.ts); every
  // catalog change makes new keys, so old pages are never asked for again. They age out of
  // this in-memory LRU, which bounds the server's memory however many versions pass through.
  // It counts HTML + RSC payloads (~70 KB for a product page, so 16 MB, the default, holds
  // some 230 pages); V8 holds HTML with any character past U+00FF at two bytes a character,
  // so they take ~21 MB of heap (docs/operating.md#memory).
  cacheMaxMemorySize: pageCacheBytes(),
  // proxy.ts rewrites product pages to their cached copy. Normalised, a rewrite is written
  // back through NextURL, which spells 127.0.0.1 as "localhost"; the router then compares it
  // with the URL it received (127.0.0.1 under `next start -H 127.0.0.1`), sees another origin
  // and proxies the request to "another server" instead of rewriting. Unnormalised, Proxy
  // gets the URL as received and its rewrite is sent as written.
  skipProxyUrlNormalize: true,
  experimental: {
    // Two root layouts (pages rendered on request, cached product pages): unmatched URLs
    // get app/global-not-found.tsx, a whole document of its own.
    globalNotFound: true,
    // Server actions take the shop's small forms (cart, checkout, signups, preferences: a
    // few hundred bytes with their state). Next counts an action's body while it streams in,
    // chunked or not, and stops at this limit (default 1 MB) with a 413.
    serverActions: { bodySizeLimit: '32kb' },
  },
};

/**
 * `next build` and `next dev` (however started: npm run build, npm start's build step, the
 * tests, the bench) first copy the API reference's files into public/ (app/docs/assets.mjs).
 */
export default function config(phase) {
  if (phase === PHASE_PRODUCTION_BUILD || phase === PHASE_DEVELOPMENT_SERVER) copyDocsAssets();
  return nextConfig;
}
