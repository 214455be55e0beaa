import IORedis from 'ioredis';
import { REDIS_URL } from '@app/testing';
import type { CountedEvent } from './analytics-event';
import { RedisAnalyticsBuffer } from './redis-analytics-buffer.adapter';

const event = (kind: CountedEvent['kind']): CountedEvent => ({
  day: '2026-11-24',
  ownerId: 'usr_1',
  showcaseId: 7,
  itemId: 0,
  surface: 'showcase',
  variant: '',
  kind,
  platform: '',
  referrerHost: '',
  visitor: 'v1',
});

/** The scaled mode's buffer against the real Redis. */
describe('RedisAnalyticsBuffer', () => {
  const ns = `analytics-spec-${Date.now()}`;
  let a: RedisAnalyticsBuffer;
  let b: RedisAnalyticsBuffer;
  beforeAll(() => {
    a = new RedisAnalyticsBuffer(REDIS_URL, ns);
    b = new RedisAnalyticsBuffer(REDIS_URL, ns);
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });

  it('is one log for every process: read after a cursor, trimmed once counted', async () => {
    await a.append([event('view'), event('interact')]);
    await b.append([event('ar_launch')]);
    const all = await b.readAfter(null, 10);
    expect(all.map((e) => e.event.kind)).toEqual(['view', 'interact', 'ar_launch']);
    expect((await a.readAfter(all[0].id, 10)).map((e) => e.event.kind)).toEqual(['interact', 'ar_launch']);
    await a.trimThrough(all[1].id);
    expect((await b.readAfter(all[1].id, 10)).map((e) => e.event.kind)).toEqual(['ar_launch']);
    expect((await b.readAfter(null, 10)).length).toBeLessThanOrEqual(2);
  });

  it('takes an event id once across processes, shares the day salt and lets one process hold the lock', async () => {
    expect([...(await a.firstSeen(['x1', 'x2'], 60_000))]).toEqual(['x1', 'x2']);
    expect([...(await b.firstSeen(['x2', 'x3'], 60_000))]).toEqual(['x3']);
    expect(await a.salt('2026-11-24')).toBe(await b.salt('2026-11-24'));
    // Taking ids and appending in one step.
    const before = (await a.readAfter(null, 100)).length;
    expect(
      await a.appendFresh(
        [
          { id: 'y1', event: event('view') },
          { id: 'x1', event: event('view') },
        ],
        60_000,
      ),
    ).toBe(1);
    expect(await b.appendFresh([{ id: 'y1', event: event('view') }], 60_000)).toBe(0);
    const after = await b.readAfter(null, 100);
    expect(after.length).toBe(before + 1);
    // The visitor's first event of the day on the showcase is marked so; another is not.
    expect(await a.appendFresh([{ id: 'y2', event: event('interact') }], 60_000)).toBe(1);
    const marked = (await b.readAfter(after[after.length - 2]?.id ?? null, 100)).slice(-2).map((e) => e.event.firstVisit);
    expect(marked).toEqual([
      { showcase: true, item: false },
      { showcase: false, item: false },
    ]);
    expect(await a.lock('a', 5000)).toBe(true);
    expect(await b.lock('b', 5000)).toBe(false);
    expect(await a.lock('a', 5000)).toBe(true);
  });

  describe('the ids taken, in bounded generations', () => {
    const ns2 = `analytics-spec-seen-${Date.now()}`;
    let c: RedisAnalyticsBuffer;
    let raw: IORedis;
    beforeAll(() => {
      c = new RedisAnalyticsBuffer(REDIS_URL, ns2, { maxIds: 800 });
      raw = new IORedis(REDIS_URL);
    });
    afterAll(async () => {
      const keys = await seenKeys();
      if (keys.length) await raw.del(...keys);
      await c.close();
      await raw.quit();
    });
    const seenKeys = async () => {
      const out: string[] = [];
      let cursor = '0';
      do {
        const [next, keys] = await raw.scan(cursor, 'MATCH', `${ns2}:analytics:seen:*`, 'COUNT', 1000);
        out.push(...keys);
        cursor = next;
      } while (cursor !== '0');
      return out;
    };
    const batch = (from: number) => Array.from({ length: 20 }, (_, i) => `shw_site0001:ev${from + i}`);

    it('10,000 distinct ids, 20 a beacon: each taken once, a bounded number of keys and ids, the oldest dropped and counted', async () => {
      let fresh = 0;
      for (let i = 0; i < 10_000; i += 20) fresh += (await c.firstSeen(batch(i), 86_400_000)).size;
      expect(fresh).toBe(10_000);
      const keys = await seenKeys();
      // The generation head, at most 9 generations, the eviction count: not a key per id.
      expect(keys.length).toBeLessThanOrEqual(11);
      const sets = keys.filter((k) => /:\d+$/.test(k));
      const held = (await Promise.all(sets.map((k) => raw.scard(k)))).reduce((a, b) => a + b, 0);
      expect(held).toBeLessThanOrEqual(800 + 100);
      expect(await c.seenEvicted()).toBe(10_000 - held);
      // The newest ids are duplicates; the oldest were dropped with their generation.
      expect((await c.firstSeen(batch(10_000 - 20), 86_400_000)).size).toBe(0);
      expect((await c.firstSeen(batch(0), 86_400_000)).size).toBe(20);
    });

    it('a generation expires whole once its last id is a ttl old: the id is new again', async () => {
      expect((await c.firstSeen(['late1', 'late1', 'late2'], 400)).size).toBe(2);
      expect((await c.firstSeen(['late1'], 400)).size).toBe(0);
      const gens = (await seenKeys()).filter((k) => k.includes(':seen:t400:'));
      expect(gens.length).toBeGreaterThanOrEqual(1);
      for (const k of gens) expect(await raw.pttl(k)).toBeLessThanOrEqual(400);
      await new Promise((r) => setTimeout(r, 450));
      expect(await raw.exists(...gens)).toBe(0);
      expect((await c.firstSeen(['late1'], 400)).size).toBe(1);
    });
  });
});
