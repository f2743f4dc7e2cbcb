import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{api,pkg,cmd,test}/**/*.test.ts'],
    exclude: ['dist/**', 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Test files share their worker's module graph instead of importing (and transforming) the whole tree again
    // each: every server a test starts is its own (own registries, stores, metrics), so nothing leaks between files,
    // and the suite takes ~360 s instead of ~540 s on two cores.
    isolate: false,
    // Two files at a time although the machine has two cores (vitest's default would be one): most files wait on
    // servers, kubelets and kubectl rather than compute, so the suite takes ~300 s instead of ~550 s.
    maxWorkers: 2,
    // each test file's kubectl its own discovery cache (see the file)
    setupFiles: ['test/support/kube-cache.ts'],
    // stored objects deep-frozen in every apiserver the tests start, so code writing into one fails loudly
    env: { MINI_KUBE_FREEZE_STORED: '1' },
  },
});
