import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 30_000,
  },
  resolve: {
    alias: { '@': new URL('.', import.meta.url).pathname },
    // `server-only` resolves to an empty module under the react-server condition.
    conditions: ['react-server'],
  },
});
