/** @type {import('next').NextConfig} */
const nextConfig = {
  // The libSQL driver ships native code; keep it out of the server bundle.
  serverExternalPackages: ['@libsql/client', 'libsql'],
  // Lets two builds (e.g. a benchmark and a test run) live side by side.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  poweredByHeader: false,
  reactStrictMode: true,
  typedRoutes: false,
  // Product pages are cached per (origin, market, locale, catalog version, handle); every
  // catalog change makes new keys, so old pages are never asked for again. They age out of
  // this in-memory LRU, which bounds the server's memory however many versions pass through.
  // It counts HTML + RSC payloads (~70 KB for a product page, so some 230 pages), which keeps
  // the server inside its 300 MB RSS budget.
  cacheMaxMemorySize: 16 * 1024 * 1024,
  // proxy.ts rewrites product pages to their cached copy. Normalised, a rewrite is written
  // back through NextURL, which spells 127.0.0.1 as "localhost"; the router then compares it
  // with the URL it received (127.0.0.1 under `next start -H 127.0.0.1`), sees another origin
  // and proxies the request to "another server" instead of rewriting. Unnormalised, Proxy
  // gets the URL as received and its rewrite is sent as written.
  skipProxyUrlNormalize: true,
  experimental: {
    // Cached pages stay in that memory only: on disk nothing would ever remove old versions.
    isrFlushToDisk: false,
    // Two root layouts (pages rendered on request, cached product pages): unmatched URLs
    // get app/global-not-found.tsx, a whole document of its own.
    globalNotFound: true,
    // Server actions take the shop's small forms (cart, checkout, signups, preferences: a
    // few hundred bytes with their state). Next counts an action's body while it streams in,
    // chunked or not, and stops at this limit (default 1 MB) with a 413.
    serverActions: { bodySizeLimit: '32kb' },
  },
};

export default nextConfig;
