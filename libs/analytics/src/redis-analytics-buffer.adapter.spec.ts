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
});
