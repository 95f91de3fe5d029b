import { defineConfig } from '@playwright/test';
import { resolve } from 'node:path';
import { CHROMIUM_ARGS } from './e2e/chromium-args';

// The app where it is deployed: a libSQL server over the network (here the test server of
// e2e/support/libsql-server.ts, Hrana over HTTP over a local file) and TWO `next start`
// instances on it, stateless. e2e/remote/global-setup.ts starts them on a fresh database,
// migrated, seeded and given credentials through the server's URL.
//
// The API specs that never open the database file themselves run here, split over the two
// instances; a storefront walk runs on the second; the fault specs start servers of their own.
const port = Number(process.env.E2E_PORT || 3100);
// The second instance and the database server, far from the first's port (other runs use its neighbours).
export const REMOTE_PORTS = { a: port, b: port + 1000, database: port + 2000 };
const dataDir = resolve(process.env.E2E_DATA_DIR || `.e2e-data/remote-${port}`);
process.env.E2E_DATA_DIR = dataDir;
process.env.E2E_BASE_URL = `http://127.0.0.1:${REMOTE_PORTS.a}`;
process.env.E2E_REMOTE_PORTS = JSON.stringify(REMOTE_PORTS);

const A = `http://127.0.0.1:${REMOTE_PORTS.a}`;
const B = `http://127.0.0.1:${REMOTE_PORTS.b}`;
const chromium = {
  browserName: 'chromium' as const,
  launchOptions: { executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: CHROMIUM_ARGS },
  screenshot: 'only-on-failure' as const,
};

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results/remote',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: 'test-reports/playwright-remote.json' }]],
  timeout: 60_000,
  globalSetup: './e2e/remote/global-setup.ts',
  use: { trace: 'retain-on-failure' },
  projects: [
    {
      name: 'remote-api-a',
      testDir: 'e2e/api',
      testMatch: ['reads.spec.ts', 'build.spec.ts', 'generated-client.spec.ts', 'locale-texts.spec.ts'],
      use: { baseURL: A },
    },
    {
      name: 'remote-api-b',
      testDir: 'e2e/api',
      testMatch: [
        'contract.spec.ts',
        'checkout-merchant.spec.ts',
        'checkout-bundles.spec.ts',
        'early-reads.spec.ts',
        'product-search.spec.ts',
      ],
      use: { baseURL: B },
    },
    // After the API specs: they change stock and prices, which the walk reads as a shopper.
    {
      name: 'remote-storefront',
      testDir: 'e2e/remote',
      testMatch: 'storefront-walk.spec.ts',
      dependencies: ['remote-api-a', 'remote-api-b'],
      use: { baseURL: B, ...chromium },
    },
    // Kept product pages across the two instances (no browser: the pages as the proxy answers them).
    { name: 'remote-pages', testDir: 'e2e/remote', testMatch: 'kept-pages.spec.ts' },
    { name: 'remote-faults', testDir: 'e2e/remote', testMatch: 'faults.spec.ts', use: chromium },
  ],
});
