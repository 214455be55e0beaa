// A worker thread that runs a TypeScript entry from the sources (unit tests, where nothing is built): SWC
// compiles each .ts file as the thread requires it, with the project's configuration and path aliases
// (scripts/swc-config.js), as Jest does in the main thread. workerData: { entry: '<absolute path>.ts', data }.
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { workerData } = require('node:worker_threads');
const { transformSync } = require('@swc/core');
const { swcConfig } = require('../../scripts/swc-config');

const config = { ...swcConfig(join(__dirname, '..', '..')), swcrc: false, sourceMaps: 'inline' };
require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(readFileSync(filename, 'utf8'), { ...config, filename });
  module._compile(code, filename);
};
require(workerData.entry);
