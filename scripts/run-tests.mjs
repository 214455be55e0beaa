#!/usr/bin/env node
/**
 * `npm test` after the build: the three Jest tiers, then a report.
 *
 * - unit: TEST_WORKERS files at a time (default 2: its files are mostly one thread each);
 * - then e2e and browser in one Jest run with two workers: one queue of both tiers' files, the slowest first
 *   (Jest's own order). Either tier alone leaves part of the machine idle (an e2e file waits on conversions,
 *   polls and sockets; a browser file on Chromium), so on 2 cores the two together take less wall time than one
 *   after the other; one queue keeps both workers busy to the end (two Jest processes, one a tier, left one idle
 *   for the last 4 of 14 minutes). TEST_TIERS_SIDE_BY_SIDE=0 runs e2e, then browser, one file at a time (a
 *   machine already loaded by other work); TEST_WORKERS sets the workers of every tier.
 *
 * With TEST_REPORT_DIR set, each run also writes Jest's JSON report there, and the run ends with the time of each
 * and the ten slowest files. Arguments are handed to every Jest run (e.g. a path pattern:
 * `node scripts/run-tests.mjs oembed`). Exits non-zero when any run failed.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const workers = process.env.TEST_WORKERS;
const sideBySide = process.env.TEST_TIERS_SIDE_BY_SIDE !== '0';
const reportDir = process.env.TEST_REPORT_DIR;
if (reportDir) mkdirSync(reportDir, { recursive: true });
const jest = join(process.cwd(), 'node_modules/jest/bin/jest.js');

/** One Jest run of `projects` with `maxWorkers` workers, its output on this terminal. */
function run(projects, maxWorkers) {
  const name = projects.join('+');
  const args = ['--selectProjects', ...projects, `--maxWorkers=${maxWorkers}`, ...process.argv.slice(2)];
  if (reportDir) args.push('--json', `--outputFile=${join(reportDir, `${name}.json`)}`);
  const start = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [jest, ...args], {
      env: { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --experimental-vm-modules`.trim() },
      stdio: 'inherit',
    });
    child.on('exit', (code, signal) => {
      const seconds = Math.round((Date.now() - start) / 1000);
      console.log(`== ${name}: ${code === 0 ? 'passed' : `FAILED (exit ${code ?? signal})`} in ${seconds} s`);
      resolve({ name, code: code ?? 1, seconds });
    });
  });
}

const results = [await run(['unit'], workers ?? 2)];
if (sideBySide) results.push(await run(['e2e', 'browser'], workers ?? 2));
else for (const tier of ['e2e', 'browser']) results.push(await run([tier], workers ?? 1));

console.log(`\n== runs: ${results.map((r) => `${r.name} ${r.seconds} s`).join(', ')}`);
if (reportDir) {
  const files = [];
  for (const r of results) {
    try {
      const report = JSON.parse(readFileSync(join(reportDir, `${r.name}.json`), 'utf8'));
      const tiers = {};
      for (const f of report.testResults) {
        const file = f.name.replace(`${process.cwd()}/`, '');
        const tier = file.endsWith('.browser.e2e-spec.ts') ? 'browser' : file.endsWith('.e2e-spec.ts') ? 'e2e' : 'unit';
        const t = (tiers[tier] ??= { files: 0, passed: 0, failed: 0, skipped: 0, seconds: 0 });
        t.files++;
        t.seconds += (f.endTime - f.startTime) / 1000;
        for (const a of f.assertionResults) {
          if (a.status === 'passed') t.passed++;
          else if (a.status === 'failed') t.failed++;
          else t.skipped++;
        }
        files.push({ tier, file, s: (f.endTime - f.startTime) / 1000, tests: f.assertionResults.length });
      }
      for (const [tier, t] of Object.entries(tiers))
        console.log(
          `== ${tier}: ${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped, ${t.files} files, ${Math.round(t.seconds)} s summed over its files`,
        );
    } catch {
      console.log(`== ${r.name}: no JSON report`);
    }
  }
  console.log('== the ten slowest files');
  for (const f of files.sort((a, b) => b.s - a.s).slice(0, 10))
    console.log(`${f.s.toFixed(1).padStart(7)} s  ${f.tier.padEnd(7)} ${f.file} (${f.tests} tests)`);
}
process.exit(results.some((r) => r.code !== 0) ? 1 : 0);
