import { MemoryAnalyticsBuffer } from './memory-analytics-buffer.adapter';
import { fingerprint, SEEN_GENERATIONS, SeenIds } from './seen-ids';

const DAY = 86_400_000;
const batch = (from: number) => Array.from({ length: 20 }, (_, i) => `shw_site0001:ev${String(from + i).padStart(10, '0')}`);

describe('SeenIds', () => {
  it('takes an id once within its ttl, and again once the ttl has passed', () => {
    let now = 0;
    const seen = new SeenIds({ ttlMs: DAY, now: () => now });
    expect(seen.take('a')).toBe(true);
    expect(seen.take('a')).toBe(false);
    now += DAY - 1;
    expect(seen.take('a')).toBe(false); // a day less a millisecond after it was taken: still a duplicate
    expect(seen.take('b')).toBe(true);
    now += 1;
    expect(seen.take('a')).toBe(true); // its generation is a day old: gone whole
    expect(seen.take('b')).toBe(false);
    now += DAY;
    expect(seen.take('c')).toBe(true); // both generations are a day past their last id: gone
    expect(seen.size).toBe(1);
    expect(seen.generations).toBeLessThanOrEqual(SEEN_GENERATIONS + 1);
  });

  it('1,000,000 distinct ids in a day, 20 a beacon: each taken once, a check looks in at most 9 tables, nothing evicted', async () => {
    let now = 0;
    const buffer = new MemoryAnalyticsBuffer({ now: () => now });
    const n = 1_000_000;
    let fresh = 0;
    let mostLookups = 0;
    for (let i = 0; i < n; i += 20) {
      now = Math.floor((i / n) * DAY);
      const before = buffer.seenStats().lookups;
      fresh += (await buffer.firstSeen(batch(i), DAY)).size;
      mostLookups = Math.max(mostLookups, buffer.seenStats().lookups - before);
    }
    expect(fresh).toBe(n);
    const stats = buffer.seenStats();
    expect(stats.ids).toBe(n);
    expect(stats.evicted).toBe(0);
    // However many ids are held, a beacon of 20 costs at most 20 × (generations + 1) lookups: no scan.
    expect(mostLookups).toBeLessThanOrEqual(20 * (SEEN_GENERATIONS + 1));
    // Every id of the last hours is still a duplicate; the first one too (less than a day ago).
    expect((await buffer.firstSeen([...batch(n - 20), ...batch(0)], DAY)).size).toBe(0);
    // A day after the first ids, their generation is gone whole and they count again; the recent ones do not.
    now = DAY + DAY / SEEN_GENERATIONS + 1;
    expect((await buffer.firstSeen(batch(0), DAY)).size).toBe(20);
    expect((await buffer.firstSeen(batch(n - 20), DAY)).size).toBe(0);
    expect(buffer.seenStats().ids).toBeLessThan(n);
  });

  it('past the cap the oldest generation goes early and is counted; the count held stays bounded', () => {
    const now = 0; // a flood: every id at the same moment
    const maxIds = 100_000;
    const seen = new SeenIds({ ttlMs: DAY, maxIds, now: () => now });
    let most = 0;
    let fresh = 0;
    for (let i = 0; i < 1_000_000; i += 20) {
      for (const id of batch(i)) if (seen.take(id)) fresh++;
      most = Math.max(most, seen.size);
    }
    expect(fresh).toBe(1_000_000);
    expect(most).toBeLessThanOrEqual(maxIds + maxIds / SEEN_GENERATIONS);
    expect(seen.generations).toBe(SEEN_GENERATIONS + 1);
    expect(seen.evicted + seen.size).toBe(1_000_000);
    expect(seen.lookups).toBeLessThanOrEqual(1_000_000 * (SEEN_GENERATIONS + 1));
    // The newest ids are still known; the oldest were dropped with their generation and count as new.
    expect(batch(1_000_000 - 20).every((id) => !seen.take(id))).toBe(true);
    expect(batch(0).every((id) => seen.take(id))).toBe(true);
  });

  it('fingerprints are 64 bits, differ by seed, and spread', () => {
    expect(fingerprint('x', 1)).not.toEqual(fingerprint('x', 2));
    const fps = new Set(Array.from({ length: 100_000 }, (_, i) => fingerprint(`ev${i}`, 7).join(':')));
    expect(fps.size).toBe(100_000);
  });
});

describe('MemoryAnalyticsBuffer visitor marks', () => {
  it('a visitor is first of the day once, and again two days later; the marks are bounded like the ids', async () => {
    let now = Date.parse('2026-11-24T10:00:00Z');
    const buffer = new MemoryAnalyticsBuffer({ now: () => now, maxIds: 8_000 });
    const event = (visitor: string) => ({
      day: '2026-11-24',
      ownerId: 'usr_1',
      showcaseId: 7,
      itemId: 3,
      surface: 'item' as const,
      variant: '',
      kind: 'view' as const,
      platform: '' as const,
      referrerHost: '',
      visitor,
    });
    await buffer.appendFresh([{ id: 'e1', event: event('w1') }], DAY);
    await buffer.appendFresh([{ id: 'e2', event: event('w1') }], DAY);
    now += 2 * DAY + (2 * DAY) / SEEN_GENERATIONS;
    await buffer.appendFresh([{ id: 'e3', event: event('w1') }], DAY);
    expect((await buffer.readAfter(null, 10)).map((e) => e.event.firstVisit)).toEqual([
      { showcase: true, item: true },
      { showcase: false, item: false },
      { showcase: true, item: true },
    ]);
    // A 20-event beacon of one visitor on one item checks its two marks once each, not twice per event.
    const before = buffer.seenStats().lookups;
    await buffer.appendFresh(
      Array.from({ length: 20 }, (_, i) => ({ id: `b${i}`, event: event('w2') })),
      DAY,
    );
    const checks = buffer.seenStats().lookups - before;
    expect(checks).toBeLessThanOrEqual((20 + 2) * (SEEN_GENERATIONS + 1));
    expect((await buffer.readAfter(null, 100)).slice(-20).filter((e) => e.event.firstVisit?.showcase)).toHaveLength(1);
    // Rotating user agents: every beacon a new visitor, two marks each; the marks stay under their cap.
    for (let i = 0; i < 20_000; i++) await buffer.appendFresh([{ id: `f${i}`, event: event(`r${i}`) }], DAY);
    const stats = buffer.seenStats();
    expect(stats.ids).toBeLessThanOrEqual(2 * (8_000 + 8_000 / SEEN_GENERATIONS));
    expect(stats.evicted).toBeGreaterThan(0);
  });
});
