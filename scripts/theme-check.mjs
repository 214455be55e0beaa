#!/usr/bin/env node
// `npm run lint:shopify`: Shopify's theme linter (@shopify/theme-check-node) over the theme app extension, with
// the rules `shopify app deploy` applies to extensions (its .theme-check.yml: theme-check:theme-app-extension).
// Fails on any offense, warnings included, and when it found no file to check: theme-check resolves a relative
// root against nothing useful and then reports a clean run over zero files, so the root is made absolute here.
import { themeCheckRun } from '@shopify/theme-check-node';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const root = resolve(process.argv[2] ?? resolve(repo, 'integrations/shopify/extensions/image-ar'));
const severities = ['error', 'warning', 'info'];

const run = await themeCheckRun(root, undefined, () => {});
const files = run.theme.map((file) => relative(root, fileURLToPath(file.uri)));
if (files.length === 0) {
  console.error(`theme-check: no theme files under ${root}`);
  process.exit(1);
}
for (const o of run.offenses) {
  const where = `${relative(root, fileURLToPath(o.uri))}:${o.start.line + 1}:${o.start.character + 1}`;
  console.log(`${where} ${severities[o.severity] ?? o.severity} ${o.check}: ${o.message}`);
}
console.log(
  `theme-check (${run.config.context}, ${run.config.checks.length} checks): ${files.length} files, ${run.offenses.length} offenses`,
);
process.exit(run.offenses.length === 0 ? 0 : 1);
