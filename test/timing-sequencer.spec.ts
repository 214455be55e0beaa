import { join } from 'node:path';

// CommonJS: Jest loads it as the configured testSequencer (jest.config.js).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const TimingSequencer = require('./support/timing-sequencer.js') as new () => {
  committed: Record<string, number>;
  sort(tests: unknown[]): { path: string }[];
};

const ROOT = join(__dirname, '..');

/** A test as Jest hands it to the sequencer, with no cache (a clean clone) and a file size. */
const fakeTest = (rel: string, size: number) => ({
  path: join(ROOT, rel),
  context: { config: { cache: false }, hasteFS: { getSize: () => size } },
});

describe('the test sequencer (test/support/timing-sequencer.js)', () => {
  it("runs files slowest first by the committed times when Jest has none; a file with no time counts as its tier's median", () => {
    const seq = new TimingSequencer();
    seq.committed = {
      'test/slow.e2e-spec.ts': 300,
      'test/mid.e2e-spec.ts': 100,
      'test/quick.e2e-spec.ts': 5,
      'libs/x/heavy.spec.ts': 20,
      'libs/x/light.spec.ts': 1,
      'libs/x/median.spec.ts': 3,
    };
    const order = seq
      .sort([
        fakeTest('test/quick.e2e-spec.ts', 90_000),
        fakeTest('libs/x/light.spec.ts', 70_000),
        fakeTest('test/big-unknown.spec.ts', 50_000),
        fakeTest('test/new.e2e-spec.ts', 2_000),
        fakeTest('test/slow.e2e-spec.ts', 3_000),
        fakeTest('libs/x/heavy.spec.ts', 500),
        fakeTest('test/small-unknown.spec.ts', 1_000),
        fakeTest('test/mid.e2e-spec.ts', 20_000),
      ])
      .map((t) => t.path.replace(`${ROOT}/`, ''));
    // Slowest first, the slow e2e file although it is among the smallest; the unlisted e2e file at the e2e median
    // (100 s, after mid by size); the unlisted unit specs at the unit median (3 s), the larger first, after the
    // listed 20 s spec and before the 1 s one. Jest's own order ran every file without a time first.
    expect(order).toEqual([
      'test/slow.e2e-spec.ts',
      'test/mid.e2e-spec.ts',
      'test/new.e2e-spec.ts',
      'libs/x/heavy.spec.ts',
      'test/quick.e2e-spec.ts',
      'test/big-unknown.spec.ts',
      'test/small-unknown.spec.ts',
      'libs/x/light.spec.ts',
    ]);
  });

  it('reads the committed times of the e2e and browser files', () => {
    expect(new TimingSequencer().committed['test/cut-out-quality.e2e-spec.ts']).toBeGreaterThan(60);
  });
});
