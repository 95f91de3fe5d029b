import { defineConfig } from '@playwright/test';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { CHROMIUM_ARGS } from './e2e/chromium-args';

// Each run gets its own port, database and build folder, so runs can live side by side.
const port = Number(process.env.E2E_PORT || 3100);
const dataDir = resolve(process.env.E2E_DATA_DIR || `.e2e-data/${port}`);
process.env.E2E_DATA_DIR = dataDir;
process.env.E2E_BASE_URL = `http://127.0.0.1:${port}`;

export { CHROMIUM_ARGS };

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  fullyParallel: true,
  // One worker per core, at most three: each drives a Chromium beside the one server, and on
  // two cores a third worker only makes every test slower.
  workers: Math.min(3, availableParallelism()),
  retries: 0,
  reporter: [
    ['list'],
    ['html', { open: 'never', outputFolder: 'playwright-report' }],
    ['json', { outputFile: 'test-reports/playwright.json' }],
  ],
  // A bound on a test that is stuck, not a wait: the longest shop flows take ~20 s on a
  // quiet 2-core host, and must still pass on a busy one.
  timeout: 60_000,
  use: { baseURL: `http://127.0.0.1:${port}`, trace: 'retain-on-failure' },
  projects: [
    { name: 'api', testDir: 'e2e/api' },
    {
      name: 'storefront',
      testDir: 'e2e/storefront',
      // After the api project, not beside it: its tests change stock, prices and publication
      // in the one shared server's catalog all the time, and the storefront tests assert the
      // seed's prices and availability as a shopper sees them. (A catalog change while a page
      // is open is tested on purpose, in shopping.spec.ts.)
      dependencies: ['api'],
      use: {
        browserName: 'chromium',
        launchOptions: { executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: CHROMIUM_ARGS },
        screenshot: 'only-on-failure',
        // A browser reading English in Sweden (the default market): Chromium's own en-US would
        // open every test in the US market (docs/storefront.md, "Market and language on a first visit").
        locale: 'en-SE',
      },
    },
  ],
  webServer: {
    command: `bash scripts/e2e-server.sh`,
    url: `http://127.0.0.1:${port}/site/v1/openapi.json`,
    timeout: 240_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
    env: { E2E_PORT: String(port), E2E_DATA_DIR: dataDir },
  },
});
