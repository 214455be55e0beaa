// Jest cannot require ES-module-only packages from CommonJS (Node 20 can, natively). Transpile those
// packages to CommonJS once per run; jest.config.js maps their names to the copies.
const { transformFileSync } = require('@swc/core');
const { mkdirSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const ROOT = join(__dirname, '../..');
const OUT = join(ROOT, 'node_modules/.cache/jest-cjs');
const ESM_ONLY = { 'property-graph': 'node_modules/property-graph/dist/index.mjs' };

module.exports = async () => {
  mkdirSync(OUT, { recursive: true });
  for (const [name, file] of Object.entries(ESM_ONLY)) {
    const { code } = transformFileSync(join(ROOT, file), {
      swcrc: false,
      module: { type: 'commonjs' },
      jsc: { target: 'es2022', parser: { syntax: 'ecmascript' } },
    });
    writeFileSync(join(OUT, `${name}.js`), code);
  }
};
