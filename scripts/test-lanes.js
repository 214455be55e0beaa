/**
 * How `npm test` (scripts/run-tests.mjs) shares the e2e and browser files out between its two lanes (CommonJS, so
 * that a unit spec can require it: test/test-lanes.spec.ts).
 */

const { readFileSync } = require('node:fs');
const { join } = require('node:path');

/** The committed file times (test/support/test-timings.json: `{ seconds: { 'test/x.e2e-spec.ts': 42 } }`); {} when unreadable. */
function committedTimings(root = join(__dirname, '..')) {
  try {
    return JSON.parse(readFileSync(join(root, 'test/support/test-timings.json'), 'utf8')).seconds ?? {};
  } catch {
    return {};
  }
}

/** The tier a test file belongs to (jest.config.js's projects, by name). */
const tierOf = (file) => (file.endsWith('.browser.e2e-spec.ts') ? 'browser' : file.endsWith('.e2e-spec.ts') ? 'e2e' : 'unit');

/** The median of the times listed for a tier's files (`timings` as {@link committedTimings}); undefined when none is. */
function tierMedian(timings, tierName) {
  const xs = Object.entries(timings)
    .filter(([f]) => tierOf(f) === tierName)
    .map(([, s]) => s)
    .sort((x, y) => x - y);
  return xs.length ? xs[Math.floor(xs.length / 2)] : undefined;
}

/**
 * The e2e and browser files in two lanes: every browser file in lane a (two browser files at once take as long as
 * one after the other), then the e2e files slowest first, each to the lane with less time so far. `timings`: a
 * file's seconds (test/support/test-timings.json); a file not there counts as its tier's median (30 s when the
 * tier has none).
 *
 * @example
 * shareOut(['test/a.browser.e2e-spec.ts', 'test/b.e2e-spec.ts', 'test/c.e2e-spec.ts'], { 'test/a.browser.e2e-spec.ts': 60, 'test/b.e2e-spec.ts': 50, 'test/c.e2e-spec.ts': 20 })
 * // { a: { files: ['test/a.browser.e2e-spec.ts'], s: 60 }, b: { files: ['test/b.e2e-spec.ts', 'test/c.e2e-spec.ts'], s: 70 } }
 */
function shareOut(files, timings) {
  const time = (f) => timings[f] ?? tierMedian(timings, tierOf(f)) ?? 30;
  const lanes = { a: { files: [], s: 0 }, b: { files: [], s: 0 } };
  for (const f of files.filter((x) => tierOf(x) === 'browser')) {
    lanes.a.files.push(f);
    lanes.a.s += time(f);
  }
  const e2e = files.filter((x) => tierOf(x) === 'e2e').sort((x, y) => time(y) - time(x) || x.localeCompare(y));
  for (const f of e2e) {
    const lane = lanes.b.s <= lanes.a.s ? lanes.b : lanes.a;
    lane.files.push(f);
    lane.s += time(f);
  }
  return lanes;
}

module.exports = { committedTimings, shareOut, tierMedian, tierOf };
