#!/usr/bin/env node
/**
 * `npm test` after the build: the three Jest tiers, then a report.
 *
 * - unit: TEST_WORKERS files at a time (default 2: its files are mostly one thread each);
 * - then the e2e and browser files in two lanes side by side, two Jest processes, one file at a time each. Each
 *   file alone leaves part of the machine idle (an e2e file waits on conversions, polls and sockets; a browser file
 *   on Chromium), so on 2 cores two lanes take less wall time than one; two browser files at once took as long as
 *   one after the other, so every browser file runs in lane A. The e2e files are shared out so that both lanes
 *   take about as long, slowest first (each to the lane with less time so far), by the file times in
 *   test/support/test-timings.json (a file not listed there counts as its tier's median). With the tiers as the
 *   lanes (all e2e in one, all browser in the other), the e2e lane ran ~370 s alone after the browser lane
 *   had finished. TEST_TIERS_SIDE_BY_SIDE=0 runs the two tiers one after the other (a machine already loaded by
 *   other work); TEST_WORKERS > 1 runs that many files at a time within each tier.
 *
 * Each lane's output is kept and printed whole when the lane ends, so the two never interleave. With
 * TEST_REPORT_DIR set, each Jest process also writes its JSON report there (<unit|lane-a|lane-b>.json), and the
 * run ends with each lane's wall time, each tier's summed file time, the ten slowest files, and the file times as
 * timings.json (copy it over test/support/test-timings.json to share the lanes out by them). Arguments are handed
 * to every tier's Jest and then the tiers are run as tiers, not lanes (e.g. a path pattern:
 * `node scripts/run-tests.mjs oembed`). Exits non-zero when any Jest process failed.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { committedTimings, shareOut, tierOf } = require('./test-lanes.js');
const { cpuLine, cpuMeter, cpuTimeline } = require('./cpu-meter.js');

const workers = process.env.TEST_WORKERS;
const sideBySide = process.env.TEST_TIERS_SIDE_BY_SIDE !== '0';
const reportDir = process.env.TEST_REPORT_DIR;
if (reportDir) mkdirSync(reportDir, { recursive: true });
const jest = join(process.cwd(), 'node_modules/jest/bin/jest.js');

/** Runs one Jest process (`--selectProjects` and files in `args`); its output to the terminal or kept and printed whole. */
function jestRun(name, args, maxWorkers, output) {
  const all = [...args, `--maxWorkers=${maxWorkers}`];
  if (reportDir) all.push('--json', `--outputFile=${join(reportDir, `${name}.json`)}`);
  const start = Date.now();
  return new Promise((resolve) => {
    const kept = output === 'kept' ? [] : null;
    const child = spawn(process.execPath, [jest, ...all], {
      env: { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --experimental-vm-modules`.trim() },
      stdio: kept ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    if (kept) for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk) => kept.push(chunk));
    // 'close', not 'exit': by then the child's output has all been read.
    child.on('close', (code, signal) => {
      const seconds = Math.round((Date.now() - start) / 1000);
      if (kept) process.stdout.write(`\n== ${name} (ran beside another; its whole output)\n${Buffer.concat(kept).toString('utf8')}`);
      console.log(`== ${name}: ${code === 0 ? 'passed' : `FAILED (exit ${code ?? signal})`} in ${seconds} s`);
      resolve({ name, code: code ?? 1, seconds });
    });
  });
}

/** One tier as one Jest process. */
// The arguments first: `--selectProjects` takes every word after it as a project name, so a path pattern after it
// would be read as a project (and the whole tier would run). A pattern that matches no file of a tier passes it.
const picked = process.argv.slice(2);
const tier = (name, maxWorkers, output) =>
  jestRun(name, [...picked, ...(picked.length ? ['--passWithNoTests'] : []), '--selectProjects', name], maxWorkers, output);

// The whole machine's CPU per phase (not only Jest's): idle CPU is room for more side by side, none means less work.
const cpu = {};
let meter = cpuMeter();
const results = [await tier('unit', workers ?? 2, 'inherit')];
cpu.unit = meter.stop();
meter = cpuMeter();
const timeline = cpuTimeline();
const byLanes = sideBySide && process.argv.length <= 2 && !workers;
if (byLanes) {
  const files = readdirSync(join(process.cwd(), 'test'))
    .map((f) => `test/${f}`)
    .filter((f) => tierOf(f) !== 'unit');
  const lanes = shareOut(files, committedTimings(process.cwd()));
  for (const [name, lane] of Object.entries(lanes))
    console.log(`== lane ${name}: ${lane.files.length} files, ~${Math.round(lane.s)} s by test/support/test-timings.json`);
  const run = (name, lane) => jestRun(`lane-${name}`, ['--selectProjects', 'e2e', 'browser', '--runTestsByPath', ...lane.files], 1, 'kept');
  results.push(...(await Promise.all(Object.entries(lanes).map(([name, lane]) => run(name, lane)))));
} else if (sideBySide) results.push(...(await Promise.all([tier('e2e', workers ?? 1, 'kept'), tier('browser', workers ?? 1, 'kept')])));
else for (const name of ['e2e', 'browser']) results.push(await tier(name, workers ?? 1, 'inherit'));

const rest = meter.stop();
const minutes = timeline.stop();
console.log(
  `\n== ${byLanes ? 'runs' : 'tiers'}: ${results.map((r) => `${r.name} ${r.seconds} s`).join(', ')}${byLanes ? ' (the lanes side by side)' : sideBySide ? ' (e2e and browser side by side)' : ''}`,
);
if (cpu.unit) console.log(`== machine CPU: unit phase ${cpuLine(cpu.unit)}; ${byLanes ? 'lanes' : 'e2e and browser'} ${cpuLine(rest)}`);
if (minutes.length) console.log(`== machine CPU busy % minute by minute after the unit phase: ${minutes.join(' ')}`);
if (reportDir) {
  const files = [];
  for (const r of results) {
    try {
      const report = JSON.parse(readFileSync(join(reportDir, `${r.name}.json`), 'utf8'));
      for (const f of report.testResults) {
        const file = f.name.replace(`${process.cwd()}/`, '');
        files.push({ tier: tierOf(file), file, s: (f.endTime - f.startTime) / 1000, tests: f.assertionResults.length });
      }
      console.log(
        `== ${r.name}: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${report.numPendingTests} skipped, ${report.numTotalTestSuites} files`,
      );
    } catch {
      console.log(`== ${r.name}: no JSON report`);
    }
  }
  const sums = {};
  for (const f of files) sums[f.tier] = (sums[f.tier] ?? 0) + f.s;
  console.log(
    `== summed file time by tier: ${Object.entries(sums)
      .map(([t, s]) => `${t} ${Math.round(s)} s`)
      .join(', ')}`,
  );
  console.log('== the ten slowest files');
  for (const f of [...files].sort((a, b) => b.s - a.s).slice(0, 10))
    console.log(`${f.s.toFixed(1).padStart(7)} s  ${f.tier.padEnd(7)} ${f.file} (${f.tests} tests)`);
  const seconds = Object.fromEntries(
    files
      .filter((f) => f.tier !== 'unit')
      .sort((a, b) => a.file.localeCompare(b.file))
      .map((f) => [f.file, Math.round(f.s)]),
  );
  writeFileSync(
    join(reportDir, 'timings.json'),
    `${JSON.stringify({ measured: new Date().toISOString().slice(0, 10), seconds }, null, 2)}\n`,
  );
}
process.exit(results.some((r) => r.code !== 0) ? 1 : 0);
