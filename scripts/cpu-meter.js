/**
 * How busy the whole machine was while `npm test` ran a phase (scripts/run-tests.mjs): CPU-seconds busy and idle
 * over every core, from Linux's /proc/stat (CommonJS, so that a unit spec can require it: test/cpu-meter.spec.ts).
 * Idle CPU while tests run is time more side-by-side work could use; none idle means only less work helps.
 * Elsewhere (no /proc/stat) the meter reads nothing and the report leaves it out.
 */

const { readFileSync } = require('node:fs');
const { availableParallelism } = require('node:os');

/** USER_HZ: /proc/stat counts in hundredths of a second on Linux. */
const TICKS_PER_S = 100;

/**
 * The machine's CPU ticks so far: `busy` (user, nice, system, irq, softirq, steal) and `idle` (idle, iowait), from
 * the first (all-cores) line of /proc/stat; null where there is none.
 */
function cpuTicks(stat = '/proc/stat') {
  try {
    const line = readFileSync(stat, 'utf8').split('\n', 1)[0];
    const [label, user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/);
    if (label !== 'cpu') return null;
    const n = (v) => Number(v ?? 0);
    return { busy: n(user) + n(nice) + n(system) + n(irq) + n(softirq) + n(steal), idle: n(idle) + n(iowait) };
  } catch {
    return null;
  }
}

/**
 * Starts measuring; `stop()` gives the CPU-seconds busy and idle since, and the share of the machine that was busy
 * (null where the ticks cannot be read).
 *
 * @example
 * const meter = cpuMeter();
 * await runTier();
 * meter.stop(); // { busy_s: 240, idle_s: 25, busy_share: 0.91, cores: 2 }
 */
function cpuMeter(stat = '/proc/stat') {
  const start = cpuTicks(stat);
  return {
    stop() {
      const end = cpuTicks(stat);
      if (!start || !end) return null;
      const busy = (end.busy - start.busy) / TICKS_PER_S;
      const idle = (end.idle - start.idle) / TICKS_PER_S;
      return {
        busy_s: Math.round(busy),
        idle_s: Math.round(idle),
        busy_share: busy + idle > 0 ? Math.round((busy / (busy + idle)) * 100) / 100 : 0,
        cores: availableParallelism(),
      };
    },
  };
}

/**
 * The busy share of the machine minute by minute until `stop()` (percent, the last minute as far as it went): where
 * a phase left cores idle, e.g. one lane running alone at the end. [] where the ticks cannot be read.
 */
function cpuTimeline(stat = '/proc/stat', everyMs = 60_000) {
  const shares = [];
  let last = cpuTicks(stat);
  const take = () => {
    const now = cpuTicks(stat);
    if (last && now) {
      const busy = now.busy - last.busy;
      const all = busy + now.idle - last.idle;
      if (all > 0) shares.push(Math.round((busy / all) * 100));
    }
    last = now;
  };
  const timer = setInterval(take, everyMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      take();
      return shares;
    },
  };
}

/** One report line: `busy 240 CPU-s, idle 25 CPU-s (91 % of 2 cores busy)`; empty without a reading. */
const cpuLine = (r) =>
  r ? `busy ${r.busy_s} CPU-s, idle ${r.idle_s} CPU-s (${Math.round(r.busy_share * 100)} % of ${r.cores} cores busy)` : '';

module.exports = { cpuMeter, cpuTicks, cpuTimeline, cpuLine };
