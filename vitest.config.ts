import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{api,pkg,cmd,test}/**/*.test.ts'],
    exclude: ['dist/**', 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // stored objects deep-frozen in every apiserver the tests start, so code writing into one fails loudly
    env: { MINI_KUBE_FREEZE_STORED: '1' },
  },
});
