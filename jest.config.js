/** @type {import('jest').Config} */
const swc = JSON.parse(require('fs').readFileSync(__dirname + '/.swcrc', 'utf8'));
delete swc.$schema;
swc.jsc.baseUrl = __dirname;

module.exports = {
  testEnvironment: 'node',
  rootDir: __dirname,
  roots: ['<rootDir>/libs', '<rootDir>/apps', '<rootDir>/test'],
  testMatch: ['**/*.spec.ts', '**/*.e2e-spec.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', { ...swc, swcrc: false }] },
  // property-graph (used by @gltf-transform/core) ships ESM only: see test/support/jest-global-setup.js.
  globalSetup: '<rootDir>/test/support/jest-global-setup.js',
  moduleNameMapper: {
    '^@app/([a-z-]+)$': '<rootDir>/libs/$1/src',
    '^@image-ar/plugin-sdk$': '<rootDir>/packages/plugin-sdk/src',
    '^@image-ar/plugin-sdk/testing$': '<rootDir>/packages/plugin-sdk/src/testing',
    '^@image-ar/client$': '<rootDir>/packages/client/src',
    '^property-graph$': '<rootDir>/node_modules/.cache/jest-cjs/property-graph.js',
  },
  testTimeout: 60000,
  maxWorkers: 1,
};
