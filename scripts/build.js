#!/usr/bin/env node
// `npm run build`: apps, libs and bench into dist/ with SWC (no type check: `npm run typecheck` does that).
// The path aliases come from tsconfig.json (scripts/swc-config.js), so they are declared in one place.
// The console's browser code (apps/console/src) is not SWC's: esbuild bundles it into one script,
// dist/console/console.js, beside a copy of its stylesheet; the API serves both (ConsoleAssets).
const { copyFileSync, mkdirSync, readFileSync, writeFileSync } = require('node:fs');
const { spawnSync } = require('node:child_process');
const { join } = require('node:path');
const { swcConfig } = require('./swc-config');

const root = join(__dirname, '..');
const cacheDir = join(root, 'node_modules', '.cache');
mkdirSync(cacheDir, { recursive: true });
const configFile = join(cacheDir, 'swcrc.build.json');
writeFileSync(configFile, JSON.stringify(swcConfig(root)));
const swc = join(root, 'node_modules', '.bin', 'swc');
// What SWC leaves out is nest-cli.json's list (the Nest CLI's SWC builder reads the same one, so `nest build`
// and `npm run build` compile the same files): libs/testing holds the tests' helpers (dev dependencies such
// as playwright-core), never part of the build; apps/console is the browser's, bundled below.
const nestCli = JSON.parse(readFileSync(join(root, 'nest-cli.json'), 'utf8'));
const ignore = nestCli.compilerOptions.builder.options.ignore;
if (!Array.isArray(ignore) || !ignore.length) throw new Error('build: nest-cli.json has no compilerOptions.builder.options.ignore list');
const args = ['apps', 'libs', 'bench', '-d', 'dist', '--copy-files', '--quiet', '--ignore', ignore.join(','), '--config-file', configFile];
const r = spawnSync(swc, args, { cwd: root, stdio: 'inherit' });
if (r.status !== 0) process.exit(r.status ?? 1);

/**
 * The console's script: apps/console/src/main.ts and what it imports, as one IIFE (no module loader, one
 * same-origin <script>, CSP unchanged), not minified (readable in the browser's tools; served gzipped).
 * ES2019: the browsers the hand-written ES5 script ran in, less the ones without fetch or CSS.escape.
 */
const consoleDir = join(root, 'dist', 'console');
mkdirSync(consoleDir, { recursive: true });
require('esbuild').buildSync({
  entryPoints: [join(root, 'apps/console/src/main.ts')],
  outfile: join(consoleDir, 'console.js'),
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: 'es2019',
  tsconfig: join(root, 'apps/console/tsconfig.json'),
  charset: 'utf8',
  legalComments: 'none',
  logLevel: 'warning',
});
copyFileSync(join(root, 'apps/console/console.css'), join(consoleDir, 'console.css'));

/** The room view's script (apps/api/src/public-pages/room/room-script.ts BUILT_ROOM_SCRIPT): inlined by its page, allowed by its hash. */
require('esbuild').buildSync({
  entryPoints: [join(root, 'apps/api/src/public-pages/room/room-client/room.ts')],
  outfile: join(root, 'dist/room/room.js'),
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: 'es2019',
  minify: true,
  charset: 'utf8',
  legalComments: 'none',
  logLevel: 'warning',
});

/**
 * The widget as served (apps/api/src/public-pages/widget-script.ts BUILT_WIDGET): every locale's messages filled
 * in (from the SWC output above), then minified. ES5 in, ES5 out: it runs on any shop's page.
 */
const { widgetScript, BUILT_WIDGET } = require(join(root, 'dist/apps/api/src/public-pages/widget-script.js'));
const widget = require('esbuild').transformSync(widgetScript(readFileSync(join(root, 'apps/api/assets/widget.js'), 'utf8')), {
  loader: 'js',
  minify: true,
  target: 'es5',
  legalComments: 'none',
  logLevel: 'warning',
});
mkdirSync(join(root, 'dist/widget'), { recursive: true });
writeFileSync(join(root, BUILT_WIDGET), widget.code);
