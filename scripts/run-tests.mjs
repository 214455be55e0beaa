#!/usr/bin/env node
/**
 * `npm test` after the build: the three Jest tiers, then a report.
 *
 * By default (the pool) one Jest process runs every file of the three tiers, TEST_WORKERS files at a time (default:
 * the machine's cores + 1), slowest first (test/support/timing-sequencer.js: Jest's cache of the file times, or else
 * test/support/test-timings.json): the long e2e and browser files start first and the unit tier's many short files
 * fill the end. The suite is CPU-bound on a small machine, and each e2e or browser file alone leaves cores idle
 * (waits on conversions, polls, sockets, Chromium): one worker more than the cores fills those waits. Measured on
 * 2 cores (same day): the pool with 3 workers 799 s for all three tiers, 1,582 CPU-s busy and 10 idle; the lanes
 * (below) 167 s for the unit tier then 679 s for the lanes, 1,566 busy and 119 idle.
 *
 * TEST_SCHEDULE=lanes runs the earlier schedule: the unit tier (TEST_WORKERS files at a time, default 2), then the
 * e2e and browser files in two lanes side by side, two Jest processes, one file at a time each, every browser file in
 * lane a and the e2e files shared out so that both lanes take about as long, slowest first (each to the lane with
 * less time so far), by the file times in test/support/test-timings.json (a file not listed there counts as its
 * tier's median; scripts/test-lanes.js). TEST_TIERS_SIDE_BY_SIDE=0 with it runs the tiers one after the other (a
 * machine already loaded by other work); TEST_WORKERS > 1 with it runs that many files at a time within each tier.
 *
 * A lane's output is kept and printed whole when the lane ends, so the two never interleave. With TEST_REPORT_DIR
 * set, each Jest process also writes its JSON report there (<all|unit|lane-a|lane-b>.json), and the run ends with
 * each process's wall time, each tier's summed file time, the ten slowest files, and the file times as timings.json
 * (copy it over test/support/test-timings.json to order the files, and share the lanes out, by them). Arguments are
 * handed to Jest (e.g. a path pattern: `node scripts/run-tests.mjs oembed`); with the lanes schedule the tiers are
 * then run as tiers, not lanes. Exits non-zero when any Jest process failed.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { availableParallelism, tmpdir } from 'node:os';

const require = createRequire(import.meta.url);
const { committedTimings, shareOut, tierOf } = require('./test-lanes.js');
const { cpuLine, cpuMeter, cpuTimeline } = require('./cpu-meter.js');

const workers = process.env.TEST_WORKERS;
const sideBySide = process.env.TEST_TIERS_SIDE_BY_SIDE !== '0';
const schedule = process.env.TEST_SCHEDULE ?? 'pool';
if (schedule !== 'pool' && schedule !== 'lanes') {
  console.error(`TEST_SCHEDULE must be 'pool' or 'lanes', got '${schedule}'`);
  process.exit(2);
}
const reportDir = process.env.TEST_REPORT_DIR;
if (reportDir) mkdirSync(reportDir, { recursive: true });
const jest = join(process.cwd(), 'node_modules/jest/bin/jest.js');

// The run's temporary files in one folder of their own, removed (at the end, in the background) when every file
// passed: each file's data folders, PGlite copies, certificates, Chromium profiles and the spawned apps' scratch
// files (~3 GB a run, ~360 folders), which every run before left behind in /tmp, run after run. A failed run keeps
// its folder (printed) to look into; TEST_KEEP_TMP=1 keeps it always. Caches meant to outlive a run (Jest's
// transform cache, the migrated database templates) stay in the machine's temporary folder (TEST_SHARED_TMPDIR).
const sharedTmp = process.env.TEST_SHARED_TMPDIR ?? tmpdir();
const runTmp = mkdtempSync(join(tmpdir(), 'ar-test-run-'));

/** Runs one Jest process (`--selectProjects` and files in `args`); its output to the terminal or kept and printed whole. */
function jestRun(name, args, maxWorkers, output) {
  const all = [...args, `--maxWorkers=${maxWorkers}`];
  if (reportDir) all.push('--json', `--outputFile=${join(reportDir, `${name}.json`)}`);
  const start = Date.now();
  return new Promise((resolve) => {
    const kept = output === 'kept' ? [] : null;
    const child = spawn(process.execPath, [jest, ...all], {
      env: {
        ...process.env,
        NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --experimental-vm-modules`.trim(),
        TMPDIR: runTmp,
        TEST_SHARED_TMPDIR: sharedTmp,
        // Node's on-disk cache of compiled modules for every Node process of the run: the ~50 apps the e2e files
        // spawn load the same ~1,000 built modules, each compiling them anew without it (an API start on a migrated
        // database: 2.2-2.4 CPU-s without, 1.8-2.1 with).
        NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? join(process.cwd(), 'node_modules/.cache/node-compile-cache'),
      },
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
const results = [];
let meter = cpuMeter();
let timeline = cpuTimeline();
const byLanes = schedule === 'lanes' && sideBySide && picked.length === 0 && !workers;
if (schedule !== 'lanes') {
  results.push(
    await jestRun('all', [...picked, ...(picked.length ? ['--passWithNoTests'] : [])], workers ?? availableParallelism() + 1, 'inherit'),
  );
} else {
  results.push(await tier('unit', workers ?? 2, 'inherit'));
  cpu.unit = meter.stop();
  meter = cpuMeter();
  timeline = cpuTimeline();
  if (byLanes) {
    const files = readdirSync(join(process.cwd(), 'test'))
      .map((f) => `test/${f}`)
      .filter((f) => tierOf(f) !== 'unit');
    const lanes = shareOut(files, committedTimings(process.cwd()));
    for (const [name, lane] of Object.entries(lanes))
      console.log(`== lane ${name}: ${lane.files.length} files, ~${Math.round(lane.s)} s by test/support/test-timings.json`);
    const run = (name, lane) =>
      jestRun(`lane-${name}`, ['--selectProjects', 'e2e', 'browser', '--runTestsByPath', ...lane.files], 1, 'kept');
    results.push(...(await Promise.all(Object.entries(lanes).map(([name, lane]) => run(name, lane)))));
  } else if (sideBySide) results.push(...(await Promise.all([tier('e2e', workers ?? 1, 'kept'), tier('browser', workers ?? 1, 'kept')])));
  else for (const name of ['e2e', 'browser']) results.push(await tier(name, workers ?? 1, 'inherit'));
}

const rest = meter.stop();
const minutes = timeline.stop();
const how = schedule === 'pool' ? '' : byLanes ? ' (the lanes side by side)' : sideBySide ? ' (e2e and browser side by side)' : '';
console.log(
  `\n== ${schedule === 'pool' ? 'run' : byLanes ? 'runs' : 'tiers'}: ${results.map((r) => `${r.name} ${r.seconds} s`).join(', ')}${how}`,
);
if (cpu.unit) console.log(`== machine CPU: unit phase ${cpuLine(cpu.unit)}; ${byLanes ? 'lanes' : 'e2e and browser'} ${cpuLine(rest)}`);
else if (rest) console.log(`== machine CPU: ${cpuLine(rest)}`);
if (minutes.length) console.log(`== machine CPU busy % minute by minute${cpu.unit ? ' after the unit phase' : ''}: ${minutes.join(' ')}`);
if (reportDir) {
  const files = [];
  for (const r of results) {
    try {
      const report = JSON.parse(readFileSync(join(reportDir, `${r.name}.json`), 'utf8'));
      for (const f of report.testResults) {
        const file = f.name.replace(`${process.cwd()}/`, '');
        const count = (status) => f.assertionResults.filter((a) => a.status === status).length;
        files.push({
          tier: tierOf(file),
          file,
          s: (f.endTime - f.startTime) / 1000,
          tests: f.assertionResults.length,
          passed: count('passed'),
          failed: count('failed'),
          skipped: count('pending') + count('skipped') + count('todo'),
        });
      }
      console.log(
        `== ${r.name}: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${report.numPendingTests} skipped, ${report.numTotalTestSuites} files`,
      );
    } catch {
      console.log(`== ${r.name}: no JSON report`);
    }
  }
  if (schedule === 'pool') {
    for (const t of ['unit', 'e2e', 'browser']) {
      const of = files.filter((f) => f.tier === t);
      const sum = (k) => of.reduce((n, f) => n + f[k], 0);
      console.log(`==   ${t}: ${sum('passed')} passed, ${sum('failed')} failed, ${sum('skipped')} skipped, ${of.length} files`);
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
  // Every tier's files: the pool orders all of them by these times (the lanes share out only e2e and browser files).
  const seconds = Object.fromEntries(files.sort((a, b) => a.file.localeCompare(b.file)).map((f) => [f.file, Math.round(f.s)]));
  writeFileSync(
    join(reportDir, 'timings.json'),
    `${JSON.stringify({ measured: new Date().toISOString().slice(0, 10), seconds }, null, 2)}\n`,
  );
}
const failed = results.some((r) => r.code !== 0);
if (failed || process.env.TEST_KEEP_TMP === '1') console.log(`== the run's temporary files are kept in ${runTmp}`);
else {
  // In the background, at the lowest priority, after this process has exited: ~100,000 files (each embedded app's
  // PGlite copy is ~1,100) took 8.8 s to remove, which the run would otherwise wait for.
  const rm = spawn('nice', ['-n', '19', 'rm', '-rf', '--', runTmp], { detached: true, stdio: 'ignore' });
  rm.unref();
  // Started (or not) before this process exits: a machine without nice/rm gets a line, not a silent leftover.
  const started = await new Promise((resolve) => {
    rm.once('spawn', () => resolve(true));
    rm.once('error', (e) => {
      console.log(`== could not remove ${runTmp} (${e.message}): remove it by hand`);
      resolve(false);
    });
  });
  if (started) console.log(`== the run's temporary files are being removed in the background (${runTmp})`);
}
process.exit(failed ? 1 : 0);
