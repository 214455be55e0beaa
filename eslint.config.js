const tseslint = require('typescript-eslint');

module.exports = tseslint.config(
  {
    ignores: [
      'dist/**',
      '.nest-build/**',
      'packages/*/dist/**',
      'node_modules/**',
      'data/**',
      'coverage/**',
      'test-artifacts/**',
      'bench/results/**',
    ],
  },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read configuration through @app/config.' }],
    },
  },
  {
    // The config loaders (service, admin CLI) are the only places that read the environment; tests and bench set up processes.
    files: [
      'libs/config/src/load-config.ts',
      'libs/config/src/cli-config.ts',
      '**/*.spec.ts',
      '**/*.e2e-spec.ts',
      'test/**',
      'bench/**',
      'libs/testing/**',
    ],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    files: ['**/*.js'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
