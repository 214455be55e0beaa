import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

// CommonJS beside scripts/run-tests.mjs, which shares the e2e and browser files out with it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { committedTimings, shareOut, tierOf } = require('../scripts/test-lanes.js') as {
  committedTimings: () => Record<string, number>;
  shareOut: (files: string[], timings: Record<string, number>) => Record<'a' | 'b', { files: string[]; s: number }>;
  tierOf: (file: string) => 'unit' | 'e2e' | 'browser';
};

const ROOT = join(__dirname, '..');

describe('npm test lanes (scripts/test-lanes.js)', () => {
  it('puts every browser file in lane a and shares the e2e files out slowest first to the lane with less time', () => {
    const timings = {
      'test/p.browser.e2e-spec.ts': 100,
      'test/q.browser.e2e-spec.ts': 50,
      'test/big.e2e-spec.ts': 120,
      'test/mid.e2e-spec.ts': 60,
      'test/small.e2e-spec.ts': 20,
      'test/tiny.e2e-spec.ts': 10,
    };
    const lanes = shareOut(Object.keys(timings), timings);
    // a: 150 (browser) -> b gets big (120) -> b gets mid (180) -> a gets small (170) -> a gets tiny (180).
    expect(lanes.a.files).toEqual([
      'test/p.browser.e2e-spec.ts',
      'test/q.browser.e2e-spec.ts',
      'test/small.e2e-spec.ts',
      'test/tiny.e2e-spec.ts',
    ]);
    expect(lanes.b.files).toEqual(['test/big.e2e-spec.ts', 'test/mid.e2e-spec.ts']);
    expect([lanes.a.s, lanes.b.s]).toEqual([180, 180]);
  });

  it("counts a file without a time as its tier's median, and ignores unit specs", () => {
    const lanes = shareOut(['test/new.e2e-spec.ts', 'test/x.spec.ts', 'test/old.e2e-spec.ts', 'test/n.browser.e2e-spec.ts'], {
      'test/old.e2e-spec.ts': 40,
      'test/a.e2e-spec.ts': 10,
      'test/b.e2e-spec.ts': 70,
    });
    // The browser file: no browser times at all, 30 s; the new e2e file: the median of 10, 40, 70 (40, as old's:
    // the tie goes by name, so new goes first, to b, and old to a, which had less).
    expect(lanes.b.files).toEqual(['test/new.e2e-spec.ts']);
    expect(lanes.a.files).toEqual(['test/n.browser.e2e-spec.ts', 'test/old.e2e-spec.ts']);
    expect([lanes.a.s, lanes.b.s]).toEqual([30 + 40, 40]);
    expect(tierOf('test/x.spec.ts')).toBe('unit');
  });

  it('has a time for every e2e and browser file in test/, and lists no file that is gone (test/support/test-timings.json)', () => {
    const seconds = committedTimings();
    const files = readdirSync(join(ROOT, 'test'))
      .map((f) => `test/${f}`)
      .filter((f) => tierOf(f) !== 'unit');
    expect(files.filter((f) => !(f in seconds))).toEqual([]);
    // Unit specs are listed too (the pool orders them by it), anywhere in the repository.
    expect(Object.keys(seconds).filter((f) => !existsSync(join(ROOT, f)))).toEqual([]);
  });
});
