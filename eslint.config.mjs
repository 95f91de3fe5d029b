import { defineConfig, globalIgnores } from 'eslint/config';
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

// The layers' import lines. ESLint keeps only the last `no-restricted-imports` that matches
// a file, so every block below repeats the lines that hold for all code of the app.

// db/ is sealed: everything else reaches the database through its one API, db/index.ts
// (`@/db`). The client (`@libsql/*`), the driver (db/driver: the local file's write queue and
// checkpoints, the remote server's time limits) and a Database's client (`.$client`) stay in
// db/. The app's code (app/, lib/, proxy.ts, instrumentation.ts) does not load the native
// binding either; scripts and tests may, to open a file as another process would.
const driver = [
  { name: 'libsql', message: 'Only db/driver uses the native binding.' },
  { name: '@libsql/client/sqlite3', message: "Only db/driver uses the client's internals." },
];
const sealed = [
  { group: ['@libsql/*'], message: 'The database is reached through @/db (db/index.ts); its client stays in db/.' },
  {
    group: ['@/db/driver', '@/db/driver/*', '**/db/driver', '**/db/driver/*'],
    message: 'db/driver is sealed: use what @/db (db/index.ts) exports.',
  },
];
const noClient = [
  {
    selector: "MemberExpression[property.name='$client']",
    message: "A Database's client stays in db/: use what @/db (db/index.ts) exports.",
  },
  {
    selector: "ObjectPattern > Property[key.name='$client']",
    message: "A Database's client stays in db/: use what @/db (db/index.ts) exports.",
  },
];
const noGlobal = [
  { selector: "MemberExpression[object.name='global']", message: 'Process-wide state lives in lib/process-state.ts (processSlot).' },
];
const restrict = (files, patterns = []) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { paths: driver, patterns: [...sealed, ...patterns] }] },
});

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores([
    '.next*/**',
    '**/.next*/**',
    'out/**',
    'build/**',
    'next-env.d.ts',
    'data/**',
    'test-results/**',
    'playwright-report/**',
    'db/migrations/**',
    'public/docs/**',
  ]),
  restrict(['app/**', 'lib/**', 'proxy.ts', 'instrumentation.ts']),
  // Scripts and tests reach the database as the app does (a test of the driver itself aside, below).
  {
    files: ['scripts/**', 'test/**', 'e2e/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: sealed }],
      'no-restricted-syntax': ['error', ...noClient],
    },
  },
  // The domain never reaches up into the app, the framework or HTTP.
  restrict(
    ['lib/commerce/**'],
    [
      { group: ['@/app/*', '../app/*', '../../app/*'], message: 'lib/commerce never imports from app/.' },
      { group: ['next', 'next/*'], message: 'The domain is framework-free.' },
      {
        group: ['@/lib/http/*', '@/lib/api/*', '@/lib/server/*', '@/lib/platform/*/http'],
        message: "The domain knows no HTTP: the route wrapper and the platform's HTTP sides call it, not the other way.",
      },
    ],
  ),
  {
    files: ['db/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@/app/*', '@/lib/*', '!@/lib/process-state'],
              message: "db/ is below everything of ours (but the process's named state, lib/process-state).",
            },
            { group: ['next', 'next/*'], message: 'db/ is framework-free.' },
          ],
        },
      ],
    },
  },
  // Platform concerns (auth, idempotency, rate limits, caches) serve the domain and the
  // route wrapper; they know nothing of the shop.
  restrict(
    ['lib/platform/**'],
    [
      {
        group: ['@/app/*', '@/lib/commerce', '@/lib/commerce/*', '@/lib/site-client', '@/lib/site-client/*'],
        message: "lib/platform never imports the shop's domain or the app.",
      },
      {
        group: ['@/lib/api/*', '@/lib/server/*'],
        message: 'lib/platform serves the route wrapper (lib/api) and the server (lib/server); they call it, not the other way.',
      },
      { group: ['next', 'next/*'], message: 'lib/platform is framework-free.' },
    ],
  ),
  // lib/http is small HTTP helpers every layer may use: they import nothing of ours.
  restrict(['lib/http/**'], [{ group: ['@/*', '../*', '../../*'], message: 'lib/http imports nothing of ours.' }]),
  // The contract is what every layer agrees on, so it depends on none of them.
  restrict(
    ['lib/contract/**'],
    [
      {
        group: ['@/*', '!@/lib', '@/lib/*', '!@/lib/contract', '!@/lib/contract/*'],
        message: 'lib/contract imports nothing of ours but lib/contract itself.',
      },
      {
        group: ['next', 'next/*', 'drizzle-orm', 'drizzle-orm/*', '@libsql/*'],
        message: 'lib/contract is plain zod: no framework, no database.',
      },
    ],
  ),
  // The proxy runs before the shop's pages: it talks to the API like the shop does, with
  // two named exceptions: lib/storefront (the page key, kept pages) reads the catalog
  // version and kept pages in-process, and app/site/v1/_early-reads hands the API's reads to
  // their own route handlers.
  restrict(
    ['proxy.ts'],
    [
      {
        group: ['@/db/*', '@/db', '@/lib/commerce/*', '@/lib/platform/*', '@/lib/db'],
        message: 'The proxy reads the database only through lib/storefront.',
      },
      {
        group: ['@/app/site/*', '!@/app/site/v1', '@/app/site/v1/*', '!@/app/site/v1/_early-reads'],
        message: "The proxy reaches the API's routes only through app/site/v1/_early-reads.",
      },
    ],
  ),
  // The shop's server side (lib/storefront: routing, the page key, kept pages, rendering
  // ahead) works beside the proxy, in-process: it may read credentials, the Site's markets,
  // the catalog's changes and the kept pages (lib/storefront/stored-pages.ts, the one file
  // that holds their SQL), and nothing else of the domain; pages themselves are made through
  // the shop's front door.
  {
    ...restrict(
      ['lib/storefront/**'],
      [
        {
          group: ['@/lib/commerce/*', '!@/lib/commerce/markets', '@/db/*', '@/db', '@/app/*'],
          message:
            "The shop's server side reads credentials, markets and kept pages only; the shop's data comes through its pages and the API.",
        },
        { group: ['next', 'next/*'], message: "The shop's server side is framework-free: the proxy and instrumentation call it." },
      ],
    ),
    ignores: ['lib/storefront/stored-pages.ts', 'lib/storefront/front-door.ts'],
  },
  // The proxy's steps are the proxy's: framework code, but no database of their own.
  restrict(
    ['lib/storefront/front-door.ts'],
    [
      {
        group: ['@/db/*', '@/db', '@/lib/commerce/*', '@/lib/platform/*', '@/lib/db', '@/app/*'],
        message: 'The proxy reads the database only through lib/storefront.',
      },
    ],
  ),
  // The storefront (and its cached product pages) talks to the API only through the typed client;
  // the client reaches this deployment's API routes only through app/site/v1/_routes (in-process).
  restrict(
    ['app/(storefront)/**', 'app/storefront-cache/**', 'lib/site-client/**'],
    [
      {
        group: ['@/app/site/*', '!@/app/site/v1', '@/app/site/v1/*', '!@/app/site/v1/_routes'],
        message: 'The API is called through lib/site-client, which reaches its routes only through app/site/v1/_routes.',
      },
      {
        group: [
          '@/db/*',
          '@/db',
          '@/lib/commerce/*',
          '@/lib/api/*',
          '@/lib/server/*',
          '@/lib/platform/*',
          // but the process's one logger: the shop's server code logs like the rest of the server
          '!@/lib/platform/observability',
          '@/lib/platform/observability/*',
          '!@/lib/platform/observability/logger',
          '@/lib/db',
          '@/lib/storefront/page-key',
        ],
        message: "The storefront uses lib/site-client only (and the process's logger).",
      },
      // the same, spelled as relative paths
      {
        group: [
          '**/../db',
          '**/../db/**',
          '**/lib/commerce',
          '**/lib/commerce/**',
          '**/lib/api/**',
          '**/lib/server/**',
          '**/lib/platform/*',
          '!**/lib/platform/observability',
          '**/lib/platform/observability/*',
          '!**/lib/platform/observability/logger',
          '**/lib/db',
          '**/lib/storefront/page-key',
        ],
        message: "The storefront uses lib/site-client only (and the process's logger).",
      },
      {
        group: ['next/link'],
        message: 'Links go through ShopLink (_components/shop-link.tsx): it knows which targets load in full, and prefetches none.',
      },
    ],
  ),
  // Process-wide state has one owner (lib/process-state.ts): every slot named, with why it
  // must be one per process and who writes it. Nothing else reaches for globalThis.
  {
    files: ['app/**', 'lib/**', 'db/**', 'proxy.ts', 'instrumentation.ts'],
    ignores: ['lib/process-state.ts'],
    rules: {
      'no-restricted-globals': [
        'error',
        { name: 'globalThis', message: 'Process-wide state lives in lib/process-state.ts (processSlot).' },
      ],
      'no-restricted-syntax': ['error', ...noGlobal, ...noClient],
    },
  },
  { files: ['db/**'], rules: { 'no-restricted-syntax': ['error', ...noGlobal] } },
  { files: ['lib/process-state.ts'], rules: { 'no-restricted-syntax': ['error', ...noClient] } },
  // The driver's own tests stand under the client: what the local file's queue, statement
  // cache and checkpoints do with it, what the pinned libraries still export, and a network
  // simulated beneath it (test/support/network-client.ts; the list tests count the rows it
  // hands over: test/support/rows-read.ts).
  {
    files: [
      'test/durability.test.ts',
      'test/statement-cache.test.ts',
      'test/driver-pins.test.ts',
      'test/storage-faults.test.ts',
      'test/support/network-client.ts',
      'test/support/rows-read.ts',
      'test/product-list-bounds.test.ts',
      'test/list-index-changes.test.ts',
    ],
    rules: { 'no-restricted-imports': 'off', 'no-restricted-syntax': 'off' },
  },
]);
