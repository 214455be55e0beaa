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
  moduleNameMapper: { '^@app/([a-z-]+)$': '<rootDir>/libs/$1/src' },
  testTimeout: 60000,
  maxWorkers: 1,
};
