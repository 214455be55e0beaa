import type { JobPatch } from './job-store.port';
import { ProgressWriter } from './progress-writer';

/** A store that records writes, and a clock the test moves. */
function setup(intervalMs = 100) {
  const writes: JobPatch[] = [];
  let t = 0;
  const store = { update: async (_id: string, patch: JobPatch) => (writes.push(patch), true) };
  const writer = new ProgressWriter(store, 'job-1', intervalMs, () => t);
  return { writes, writer, advance: (ms: number) => (t += ms) };
}

describe('ProgressWriter', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('writes at once when the last write is older than the interval', async () => {
    const { writes, writer } = setup();
    writer.set({ progress: 10 });
    await writer.settle();
    expect(writes).toEqual([{ progress: 10 }]);
  });

  it('merges changes inside the interval into one later write, the newest value winning', async () => {
    const { writes, writer, advance } = setup();
    writer.wrote();
    writer.set({ status: 'converting' });
    writer.set({ progress: 20 });
    writer.set({ progress: 30 });
    expect(writes).toEqual([]);
    advance(100);
    jest.advanceTimersByTime(100);
    await Promise.resolve();
    await Promise.resolve();
    expect(writes).toEqual([{ status: 'converting', progress: 30 }]);
  });

  it('settle drops what was not written yet, so nothing lands after a final write', async () => {
    const { writes, writer } = setup();
    writer.wrote();
    writer.set({ progress: 50 });
    await writer.settle();
    jest.advanceTimersByTime(1000);
    await Promise.resolve();
    expect(writes).toEqual([]);
  });

  it('a failed write does not stop later ones', async () => {
    const writes: JobPatch[] = [];
    let fail = true;
    let t = 0;
    const store = {
      update: async (_id: string, patch: JobPatch) => {
        if (fail) {
          fail = false;
          throw new Error('db down');
        }
        writes.push(patch);
        return true;
      },
    };
    const writer = new ProgressWriter(store, 'job-1', 10, () => t);
    writer.set({ progress: 1 });
    t += 10;
    writer.set({ progress: 2 });
    await writer.settle();
    expect(writes).toEqual([{ progress: 2 }]);
  });
});
