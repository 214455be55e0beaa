// SWC's configuration: `.swcrc` plus the path aliases, which are declared once, in tsconfig.json
// (`compilerOptions.paths`). The build (scripts/build.js) and Jest (jest.config.js) both take them from here.
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const ROOT = join(__dirname, '..');

/** tsconfig.json's `paths`: alias -> [folder], relative to the repository root. */
function tsPaths() {
  return JSON.parse(readFileSync(join(ROOT, 'tsconfig.json'), 'utf8')).compilerOptions.paths;
}

/** `.swcrc` with `jsc.baseUrl` set to `baseUrl` and `jsc.paths` from tsconfig.json. */
function swcConfig(baseUrl = ROOT) {
  const swc = JSON.parse(readFileSync(join(ROOT, '.swcrc'), 'utf8'));
  delete swc.$schema;
  swc.jsc = { ...swc.jsc, baseUrl, paths: tsPaths() };
  return swc;
}

/** Jest's moduleNameMapper entries for the same aliases. */
function jestAliases() {
  const escape = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  return Object.fromEntries(Object.entries(tsPaths()).map(([alias, [target]]) => [`^${escape(alias)}$`, `<rootDir>/${target}`]));
}

module.exports = { swcConfig, jestAliases, tsPaths };
