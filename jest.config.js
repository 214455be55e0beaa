/** @type {import('jest').Config} */
// Path aliases are declared once, in tsconfig.json; scripts/swc-config.js hands them to SWC and to Jest.
const { swcConfig, jestAliases } = require('./scripts/swc-config');

const swc = swcConfig(__dirname);

module.exports = {
  testEnvironment: 'node',
  rootDir: __dirname,
  roots: ['<rootDir>/libs', '<rootDir>/apps', '<rootDir>/test'],
  testMatch: ['**/*.spec.ts', '**/*.e2e-spec.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', { ...swc, swcrc: false }] },
  // property-graph (used by @gltf-transform/core) ships ESM only: see test/support/jest-global-setup.js.
  globalSetup: '<rootDir>/test/support/jest-global-setup.js',
  moduleNameMapper: {
    ...jestAliases(),
    '^property-graph$': '<rootDir>/node_modules/.cache/jest-cjs/property-graph.js',
  },
  testTimeout: 60000,
  maxWorkers: 1,
};
