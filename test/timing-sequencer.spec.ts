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
  it('runs files slowest first by the committed times when Jest has none (files with no time at all first, by size)', () => {
    const seq = new TimingSequencer();
    seq.committed = { 'test/slow.e2e-spec.ts': 300, 'test/mid.e2e-spec.ts': 100, 'test/quick.e2e-spec.ts': 5 };
    const order = seq
      .sort([
        fakeTest('test/quick.e2e-spec.ts', 90_000),
        fakeTest('test/big-unknown.spec.ts', 50_000),
        fakeTest('test/slow.e2e-spec.ts', 3_000),
        fakeTest('test/small-unknown.spec.ts', 1_000),
        fakeTest('test/mid.e2e-spec.ts', 20_000),
      ])
      .map((t) => t.path.replace(`${ROOT}/`, ''));
    // Jest's rules: a file with no time goes before those with one (largest first); the timed ones slowest first,
    // the slow file before the others although it is the smallest.
    expect(order).toEqual([
      'test/big-unknown.spec.ts',
      'test/small-unknown.spec.ts',
      'test/slow.e2e-spec.ts',
      'test/mid.e2e-spec.ts',
      'test/quick.e2e-spec.ts',
    ]);
  });

  it('reads the committed times of the e2e and browser files', () => {
    expect(new TimingSequencer().committed['test/cut-out-quality.e2e-spec.ts']).toBeGreaterThan(60);
  });
});
