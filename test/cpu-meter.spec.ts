import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@app/testing';

// CommonJS beside scripts/run-tests.mjs, which reports each phase's CPU with it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { cpuLine, cpuMeter, cpuTicks, cpuTimeline } = require('../scripts/cpu-meter.js') as {
  cpuTimeline: (stat?: string, everyMs?: number) => { stop: () => number[] };
  cpuTicks: (stat?: string) => { busy: number; idle: number } | null;
  cpuMeter: (stat?: string) => { stop: () => { busy_s: number; idle_s: number; busy_share: number; cores: number } | null };
  cpuLine: (r: ReturnType<ReturnType<typeof cpuMeter>['stop']>) => string;
};

describe('npm test CPU meter (scripts/cpu-meter.js)', () => {
  it('reads busy and idle ticks from the all-cores line of /proc/stat (busy: user nice system irq softirq steal; idle: idle iowait)', () => {
    const stat = join(tempDir('cpu-meter-'), 'stat');
    writeFileSync(stat, 'cpu  100 5 20 900 10 1 2 3 0 0\ncpu0 50 2 10 450 5 0 1 1 0 0\nintr 1\n');
    expect(cpuTicks(stat)).toEqual({ busy: 100 + 5 + 20 + 1 + 2 + 3, idle: 900 + 10 });
    writeFileSync(stat, 'intr 1\n');
    expect(cpuTicks(stat)).toBeNull();
    expect(cpuTicks(join(tempDir('cpu-meter-'), 'none'))).toBeNull();
  });

  it('gives the CPU-seconds busy and idle between start and stop, and the busy share', () => {
    const stat = join(tempDir('cpu-meter-'), 'stat');
    writeFileSync(stat, 'cpu  1000 0 0 5000 0 0 0 0 0 0\n');
    const meter = cpuMeter(stat);
    // 30 s busy and 10 s idle later (ticks are hundredths of a second).
    writeFileSync(stat, 'cpu  3500 0 500 5800 200 0 0 0 0 0\n');
    const r = meter.stop();
    expect(r).toMatchObject({ busy_s: 30, idle_s: 10, busy_share: 0.75 });
    expect(cpuLine(r)).toBe(`busy 30 CPU-s, idle 10 CPU-s (75 % of ${r!.cores} cores busy)`);
    expect(cpuLine(null)).toBe('');
    expect(cpuMeter(join(tempDir('cpu-meter-'), 'none')).stop()).toBeNull();
  });

  it('keeps the busy share of each interval until stopped, and the part of the last one', () => {
    jest.useFakeTimers();
    try {
      const stat = join(tempDir('cpu-meter-'), 'stat');
      writeFileSync(stat, 'cpu  0 0 0 0 0 0 0 0 0 0\n');
      const timeline = cpuTimeline(stat, 60_000);
      writeFileSync(stat, 'cpu  90 0 0 10 0 0 0 0 0 0\n');
      jest.advanceTimersByTime(60_000);
      writeFileSync(stat, 'cpu  140 0 0 60 0 0 0 0 0 0\n');
      expect(timeline.stop()).toEqual([90, 50]);
      expect(cpuTimeline(join(tempDir('cpu-meter-'), 'none')).stop()).toEqual([]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('measures this machine where it has /proc/stat: a busy half second shows as busy CPU', () => {
    if (!cpuTicks()) return expect(cpuMeter().stop()).toBeNull();
    const meter = cpuMeter();
    const until = Date.now() + 500;
    while (Date.now() < until) Math.sqrt(Math.random());
    expect(meter.stop()!.busy_share).toBeGreaterThan(0);
  });
});
