import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Examples import the package by name, as users do; under test that name means the sources.
  resolve: {
    alias: [
      { find: /^gramkit$/, replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
      { find: /^gramkit\/(.+)$/, replacement: fileURLToPath(new URL('./src/entries/$1.ts', import.meta.url)) },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    // npm test builds nothing: dist/ must exist (npm run build), see test/support/dist-ready.ts
    globalSetup: ['test/support/dist-ready.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
