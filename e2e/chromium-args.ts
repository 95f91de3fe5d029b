/**
 * Flags for Debian's Chromium on this machine (root, no GPU, a small /dev/shm), with its
 * background chatter off. Shared by Playwright and the Lighthouse benchmark, which must not
 * import playwright.config.ts (it sets the e2e server's environment as it loads).
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];
