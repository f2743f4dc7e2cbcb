// Lint: catches floating promises and holds DESIGN.md's import directions
// (components never reach into the apiserver's internals; pkg/client knows nothing of the server).
import tseslint from 'typescript-eslint';

const serverInternals = ['**/pkg/apiserver/**', '**/pkg/registry/**', '**/pkg/storage/**',
  '**/pkg/authentication/**', '**/pkg/authorization/**', '**/pkg/admission/**'];
const restrict = (patterns, message) => ({
  'no-restricted-imports': ['error', { patterns: [{ group: patterns, message }] }],
});

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'eslint.config.js', 'vitest.config.ts'] },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.base],
    languageOptions: { parserOptions: { project: './tsconfig.json', tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      'no-console': 'error',
    },
  },
  { files: ['cmd/**/*.ts', 'test/**/*.ts', '**/*.test.ts'], rules: { 'no-console': 'off' } },
  {
    files: ['pkg/client/**/*.ts', 'pkg/controller/**/*.ts', 'pkg/scheduler/**/*.ts', 'pkg/kubelet/**/*.ts', 'pkg/metrics-server/**/*.ts', 'pkg/proxy/**/*.ts', 'pkg/dns/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: restrict(serverInternals, 'components talk to the apiserver only over HTTPS through pkg/client'),
  },
  {
    files: ['api/**/*.ts'],
    rules: restrict(['**/pkg/**', '**/cmd/**'], 'api/ imports nothing of ours'),
  },
  {
    files: ['pkg/apimachinery/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: restrict(['**/pkg/!(apimachinery)/**', '**/cmd/**'], 'apimachinery is pure: api/ only'),
  },
  {
    files: ['pkg/storage/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: restrict(['**/pkg/apiserver/**', '**/pkg/registry/**', '**/pkg/client/**', '**/cmd/**'], 'storage sits below the registry'),
  },
  {
    files: ['pkg/registry/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: restrict(['**/pkg/apiserver/**', '**/pkg/client/**', '**/cmd/**'], 'the registry knows nothing of HTTP'),
  },
);
