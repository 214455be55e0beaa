/**
 * Jest's order of test files, with the committed file times as a fallback: Jest runs the slowest files first
 * when its own cache has their times, and otherwise the largest files first, which on a clean clone (CI) put the
 * slowest e2e file (cut-out-quality, ~300 s, a small file) last, where it ran on alone after everything else had
 * finished. Here a file Jest has no time for takes its time from test/support/test-timings.json (written by a
 * reported `npm test` run; the lanes schedule shares its files out by the same times), so a run starts with its
 * slowest files and ends with short ones. Files with neither (new ones) come after, in Jest's order.
 */
const { join, relative } = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;
const { committedTimings } = require('../../scripts/test-lanes.js');

const ROOT = join(__dirname, '../..');

class TimingSequencer extends Sequencer {
  committed = committedTimings(ROOT);

  /** Jest's own time of the file's last run (ms), else the committed one, else none. */
  time(test) {
    const own = super.time(test);
    if (own != null) return own;
    const s = this.committed[relative(ROOT, test.path)];
    return s == null ? undefined : s * 1000;
  }
}

module.exports = TimingSequencer;
