/** @type {import('jest').Config} */
// Path aliases are declared once, in tsconfig.json; scripts/swc-config.js hands them to SWC and to Jest.
const fs = require('node:fs');
const path = require('node:path');
const { swcConfig, jestAliases } = require('./scripts/swc-config');

const swc = swcConfig(__dirname);

/**
 * Jest's own default cache folder (<tmp>/jest_<uid>), where its transforms and file times outlive a run, also when
 * scripts/run-tests.mjs points TMPDIR at the run's own folder (removed at the end): it says where the machine's
 * temporary folder is in TEST_SHARED_TMPDIR.
 */
const sharedTmp = process.env.TEST_SHARED_TMPDIR;
const cacheName = process.getuid ? `jest_${process.getuid().toString(36)}` : 'jest';
const cache = sharedTmp ? { cacheDirectory: path.join(fs.realpathSync(sharedTmp), cacheName) } : {};

/** What every tier shares: SWC, the aliases, the ESM-only packages' CommonJS copies. */
const base = {
  ...cache,
  testEnvironment: 'node',
  rootDir: __dirname,
  // @swc/jest with the built-in globals made module-local: see test/support/swc-jest-transformer.js (Jest's vm
  // context makes every global read slow; hot loops ran 10-25x slower than in production).
  transform: { '^.+\\.ts$': ['<rootDir>/test/support/swc-jest-transformer.js', { ...swc, swcrc: false }] },
  // Jest's runtime with V8's code cache kept per worker: each module compiled once per worker process, not once per
  // test file (test/support/code-cache-runtime.js).
  runtime: '<rootDir>/test/support/code-cache-runtime.js',
  // property-graph (used by @gltf-transform/core) ships ESM only: see test/support/jest-global-setup.js.
  globalSetup: '<rootDir>/test/support/jest-global-setup.js',
  moduleNameMapper: {
    ...jestAliases(),
    '^property-graph$': '<rootDir>/node_modules/.cache/jest-cjs/property-graph.js',
  },
};

/**
 * Three tiers (docs/development.md): `unit` — specs beside the code in libs/, apps/ and packages/ plus the
 * repository checks in test/*.spec.ts (pure functions, services with faked ports, adapters against the
 * real Postgres/Redis they wrap); `e2e` — the built app with real services, in the test's process (test/support/test-app.ts)
 * or as processes where the process or the mode is the subject;
 * `browser` — the same in headless Chromium. `npm test` runs all three.
 */
module.exports = {
  ...cache,
  testTimeout: 60000,
  // One file at a time for a plain `jest` unless TEST_WORKERS says otherwise: on this 2-core machine the suite is
  // CPU-bound (a browser file alone keeps up to 1.7 cores busy, mostly Chromium's software WebGL). `npm test`
  // (scripts/run-tests.mjs) runs all three tiers in one Jest process with one worker more than the cores, slowest
  // file first: each e2e or browser file alone leaves gaps (waits on conversions, polls, Chromium) that a third file
  // fills, and the unit tier's short files fill the end. Every file owns its database, data folder, queue name and
  // port, so any number can run side by side.
  maxWorkers: Number(process.env.TEST_WORKERS ?? 1),
  // Slowest files first, by Jest's cache or else test/support/test-timings.json (a clean clone has no cache).
  testSequencer: '<rootDir>/test/support/timing-sequencer.js',
  projects: [
    {
      ...base,
      displayName: 'unit',
      roots: ['<rootDir>/libs', '<rootDir>/apps', '<rootDir>/packages', '<rootDir>/test'],
      testMatch: ['**/*.spec.ts'],
    },
    {
      ...base,
      displayName: 'e2e',
      roots: ['<rootDir>/test'],
      testMatch: ['**/*.e2e-spec.ts'],
      testPathIgnorePatterns: ['\\.browser\\.e2e-spec\\.ts$'],
    },
    { ...base, displayName: 'browser', roots: ['<rootDir>/test'], testMatch: ['**/*.browser.e2e-spec.ts'] },
  ],
};
