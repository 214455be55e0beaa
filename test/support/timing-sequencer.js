/**
 * Jest's order of test files, with the committed file times as a fallback: Jest runs the slowest files first
 * when its own cache has their times, and otherwise the largest files first, which on a clean clone (CI) put the
 * slowest e2e file (cut-out-quality, ~300 s, a small file) last, where it ran on alone after everything else had
 * finished. Here a file Jest has no time for takes its time from test/support/test-timings.json (written by a
 * reported `npm test` run; the lanes schedule shares its files out by the same times), so a run starts with its
 * slowest files and ends with short ones; a file with neither time counts as its tier's median.
 */
const { join, relative } = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;
const { committedTimings, tierMedian, tierOf } = require('../../scripts/test-lanes.js');

const ROOT = join(__dirname, '../..');

class TimingSequencer extends Sequencer {
  committed = committedTimings(ROOT);

  /** Jest's own time of the file's last run (ms), else the committed one, else its tier's median committed time. */
  time(test) {
    const own = super.time(test);
    if (own != null) return own;
    const file = relative(ROOT, test.path);
    return (this.committed[file] ?? tierMedian(this.committed, tierOf(file)) ?? 0) * 1000;
  }

  /**
   * Files that failed last time first (as Jest does), then slowest first, then the larger file first, then by path.
   * Every file has a time here: Jest's own order runs a file without one before all files with one, which put the
   * unit tier's specs ahead of the slowest e2e file.
   */
  sort(tests) {
    const size = (t) => t.context.hasteFS.getSize(t.path) ?? 0;
    const keyed = tests.map((test) => ({ test, failed: this.hasFailed(test), ms: this.time(test), size: size(test) }));
    keyed.sort((a, b) => Number(b.failed) - Number(a.failed) || b.ms - a.ms || b.size - a.size || a.test.path.localeCompare(b.test.path));
    return keyed.map((k) => Object.assign(k.test, { duration: k.ms }));
  }
}

module.exports = TimingSequencer;
