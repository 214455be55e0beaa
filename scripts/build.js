#!/usr/bin/env node
// `npm run build`: apps, libs and bench into dist/ with SWC (no type check: `npm run typecheck` does that).
// The path aliases come from tsconfig.json (scripts/swc-config.js), so they are declared in one place.
const { mkdirSync, writeFileSync } = require('node:fs');
const { spawnSync } = require('node:child_process');
const { join } = require('node:path');
const { swcConfig } = require('./swc-config');

const root = join(__dirname, '..');
const cacheDir = join(root, 'node_modules', '.cache');
mkdirSync(cacheDir, { recursive: true });
const configFile = join(cacheDir, 'swcrc.build.json');
writeFileSync(configFile, JSON.stringify(swcConfig(root)));
const swc = join(root, 'node_modules', '.bin', 'swc');
// libs/testing holds the tests' helpers (dev dependencies such as playwright-core): never part of the build.
const args = ['apps', 'libs', 'bench', '-d', 'dist', '--copy-files', '--quiet', '--ignore', 'libs/testing/**', '--config-file', configFile];
const r = spawnSync(swc, args, { cwd: root, stdio: 'inherit' });
process.exit(r.status ?? 1);
