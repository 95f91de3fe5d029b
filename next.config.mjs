/** @type {import('next').NextConfig} */
const nextConfig = {
  // The libSQL driver ships native code; keep it out of the server bundle.
  serverExternalPackages: ['@libsql/client', 'libsql'],
  // Lets two builds (e.g. a benchmark and a test run) live side by side.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  poweredByHeader: false,
  reactStrictMode: true,
  typedRoutes: false,
};

export default nextConfig;
