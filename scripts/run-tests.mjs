#!/usr/bin/env node
/**
 * `npm test` after the build: the three Jest tiers, then a report.
 *
 * - unit: TEST_WORKERS files at a time (default 2: its files are mostly one thread each);
 * - then e2e and browser side by side, one file at a time each, as two Jest processes. Each tier alone leaves
 *   part of the machine idle (an e2e file waits on conversions, polls and sockets; a browser file on Chromium),
 *   so on 2 cores the two together take less wall time than one after the other. TEST_TIERS_SIDE_BY_SIDE=0 runs
 *   them one after the other (a machine already loaded by other work); TEST_WORKERS > 1 runs that many files at a
 *   time within each of them.
 *
 * Each side-by-side tier's output is kept and printed whole when the tier ends, so the two never interleave.
 * With TEST_REPORT_DIR set, each tier also writes Jest's JSON report there (<tier>.json), and the run ends with the
 * time of each tier and the ten slowest files. Arguments are handed to every tier's Jest (e.g. a path pattern:
 * `node scripts/run-tests.mjs oembed`). Exits non-zero when any tier failed.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const workers = process.env.TEST_WORKERS;
const sideBySide = process.env.TEST_TIERS_SIDE_BY_SIDE !== '0';
const reportDir = process.env.TEST_REPORT_DIR;
if (reportDir) mkdirSync(reportDir, { recursive: true });
const jest = join(process.cwd(), 'node_modules/jest/bin/jest.js');

/** Runs one tier; its output goes to the terminal (`inherit`) or is kept and printed whole when the tier ends. */
function tier(name, maxWorkers, output) {
  const args = ['--selectProjects', name, `--maxWorkers=${maxWorkers}`, ...process.argv.slice(2)];
  if (reportDir) args.push('--json', `--outputFile=${join(reportDir, `${name}.json`)}`);
  const start = Date.now();
  return new Promise((resolve) => {
    const kept = output === 'kept' ? [] : null;
    const child = spawn(process.execPath, [jest, ...args], {
      env: { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --experimental-vm-modules`.trim() },
      stdio: kept ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    if (kept) for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk) => kept.push(chunk));
    // 'close', not 'exit': by then the child's output has all been read.
    child.on('close', (code, signal) => {
      const seconds = Math.round((Date.now() - start) / 1000);
      if (kept) process.stdout.write(`\n== ${name} tier (ran beside another; its whole output)\n${Buffer.concat(kept).toString('utf8')}`);
      console.log(`== ${name} tier: ${code === 0 ? 'passed' : `FAILED (exit ${code ?? signal})`} in ${seconds} s`);
      resolve({ name, code: code ?? 1, seconds });
    });
  });
}

const results = [await tier('unit', workers ?? 2, 'inherit')];
if (sideBySide) results.push(...(await Promise.all([tier('e2e', workers ?? 1, 'kept'), tier('browser', workers ?? 1, 'kept')])));
else for (const name of ['e2e', 'browser']) results.push(await tier(name, workers ?? 1, 'inherit'));

console.log(
  `\n== tiers: ${results.map((r) => `${r.name} ${r.seconds} s`).join(', ')}${sideBySide ? ' (e2e and browser side by side)' : ''}`,
);
if (reportDir) {
  const files = [];
  for (const r of results) {
    try {
      const report = JSON.parse(readFileSync(join(reportDir, `${r.name}.json`), 'utf8'));
      for (const f of report.testResults)
        files.push({
          tier: r.name,
          file: f.name.replace(`${process.cwd()}/`, ''),
          s: (f.endTime - f.startTime) / 1000,
          tests: f.assertionResults.length,
        });
      console.log(
        `== ${r.name}: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${report.numPendingTests} skipped, ${report.numTotalTestSuites} files`,
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
