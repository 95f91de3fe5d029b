import { defineConfig, globalIgnores } from 'eslint/config';
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

// The layers' import lines. ESLint keeps only the last `no-restricted-imports` that matches
// a file, so every block below repeats the lines that hold for all code of the app.

// The driver's internals (the native binding, the client's sqlite3 module) are sealed in
// db/driver; the app reaches the database through db/client and db/driver's small API.
const driver = [
  { name: 'libsql', message: 'Only db/driver uses the native binding.' },
  { name: '@libsql/client/sqlite3', message: "Only db/driver uses the client's internals." },
];
const restrict = (files, patterns = []) => ({ files, rules: { 'no-restricted-imports': ['error', { paths: driver, patterns }] } });

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
  // three named exceptions: lib/storefront-page-key reads the catalog version in-process,
  // lib/storefront-page-store reads kept product pages, and app/site/v1/_early-reads hands
  // the API's reads to their own route handlers.
  restrict(
    ['proxy.ts'],
    [
      {
        group: ['@/db/*', '@/db', '@/lib/commerce/*', '@/lib/platform/*', '@/lib/db'],
        message: 'The proxy reads the database only through lib/storefront-page-key and lib/storefront-page-store.',
      },
      {
        group: ['@/app/site/*', '!@/app/site/v1', '@/app/site/v1/*', '!@/app/site/v1/_early-reads'],
        message: "The proxy reaches the API's routes only through app/site/v1/_early-reads.",
      },
    ],
  ),
  // Keeping product pages (lib/storefront-*.ts: their key, store and rendering ahead) works
  // beside the proxy, in-process: it may read credentials, the Site's markets and the kept
  // pages, and nothing else of the domain; pages themselves are made through the shop's front door.
  restrict(
    ['lib/storefront-*.ts'],
    [
      {
        group: ['@/lib/commerce/*', '!@/lib/commerce/markets', '@/db/*', '@/db', '@/app/*'],
        message: "Keeping pages reads credentials, markets and kept pages only; the shop's data comes through its pages and the API.",
      },
      { group: ['next', 'next/*'], message: 'Keeping pages is framework-free: the proxy and instrumentation call it.' },
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
          '@/lib/storefront-page-key',
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
          '**/lib/storefront-page-key',
        ],
        message: "The storefront uses lib/site-client only (and the process's logger).",
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
      'no-restricted-syntax': [
        'error',
        { selector: "MemberExpression[object.name='global']", message: 'Process-wide state lives in lib/process-state.ts (processSlot).' },
      ],
    },
  },
]);
