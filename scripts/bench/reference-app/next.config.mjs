// The benchmark's reference: a bare Next app with default settings, run in its own process
// (scripts/bench/reference.ts builds and starts it). Only the build folder is ours to choose.
const config = { distDir: process.env.REFERENCE_DIST_DIR || '.next' };
export default config;
