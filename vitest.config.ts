import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{api,pkg,cmd,test}/**/*.test.ts'],
    exclude: ['dist/**', 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
