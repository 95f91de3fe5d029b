import { defineConfig, globalIgnores } from 'eslint/config';
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores(['.next*/**', 'out/**', 'build/**', 'next-env.d.ts', 'data/**', 'test-results/**', 'playwright-report/**', 'db/migrations/**']),
  {
    // The domain never reaches up into the app, the framework or HTTP.
    files: ['lib/commerce/**', 'db/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: ['@/app/*', '../app/*', '../../app/*'], message: 'lib/commerce and db never import from app/.' },
        { group: ['next', 'next/*'], message: 'The domain is framework-free.' },
        { group: ['@/lib/http/*', '@/lib/platform/*/http'], message: 'The domain knows no HTTP: the route wrapper and the platform\'s HTTP sides call it, not the other way.' },
      ] }],
    },
  },
  {
    // Platform concerns (auth, idempotency, rate limits, caches) serve the domain and the
    // route wrapper; they know nothing of the shop.
    files: ['lib/platform/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: ['@/app/*', '@/lib/commerce', '@/lib/commerce/*', '@/lib/site-client', '@/lib/site-client/*'], message: 'lib/platform never imports the shop\'s domain or the app.' },
        { group: ['next', 'next/*'], message: 'lib/platform is framework-free.' },
      ] }],
    },
  },
  {
    // The contract is what every layer agrees on, so it depends on none of them.
    files: ['lib/contract/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: ['@/*', '!@/lib', '@/lib/*', '!@/lib/contract', '!@/lib/contract/*'], message: 'lib/contract imports nothing of ours but lib/contract itself.' },
        { group: ['next', 'next/*', 'drizzle-orm', 'drizzle-orm/*', '@libsql/*'], message: 'lib/contract is plain zod: no framework, no database.' },
      ] }],
    },
  },
  {
    // The proxy runs before the shop's pages: it talks to the API like the shop does, with
    // one named exception: lib/storefront-page-key reads the catalog version in-process.
    files: ['proxy.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: ['@/db/*', '@/db', '@/lib/commerce/*', '@/lib/platform/*', '@/lib/db'], message: 'The proxy reads the database only through lib/storefront-page-key.' },
      ] }],
    },
  },
  {
    // The storefront (and its cached product pages) talks to the API only through the typed client.
    files: ['app/(storefront)/**', 'app/storefront-cache/**', 'lib/site-client/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: ['@/db/*', '@/db', '@/lib/commerce/*', '@/lib/http/*', '@/lib/platform/*', '@/lib/db', '@/lib/storefront-page-key'], message: 'The storefront uses lib/site-client only.' },
      ] }],
    },
  },
]);
