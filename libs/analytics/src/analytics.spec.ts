import { aggregate } from './aggregate';
import type { CountedEvent } from './analytics-event';
import { BeaconBody } from './analytics-event';
import { MemoryAnalyticsBuffer, previousDay } from './memory-analytics-buffer.adapter';
import { isBotUserAgent, optedOut } from './user-agents';
import { referrerHost, utcDay, visitorHash } from './visitors';
import { parseInput } from '@app/schema';
import { UserError } from '@app/pipeline';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const PIXEL = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36';

const event = (over: Partial<CountedEvent> = {}): CountedEvent => ({
  day: '2026-11-24',
  ownerId: 'usr_1',
  showcaseId: 7,
  itemId: 12,
  surface: 'item',
  variant: '',
  kind: 'view',
  platform: '',
  referrerHost: '',
  visitor: 'v1',
  ...over,
});

describe('who is counted', () => {
  it('tells people from bots and headless browsers', () => {
    expect(isBotUserAgent(IPHONE)).toBe(false);
    expect(isBotUserAgent(PIXEL)).toBe(false);
    for (const bot of [
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/124.0.0.0 Safari/537.36',
      'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
      'curl/8.5.0',
      'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/109.0.0.0 Mobile Safari/537.36 Chrome-Lighthouse',
      undefined,
      '',
    ])
      expect(isBotUserAgent(bot)).toBe(true);
  });

  it('honours DNT and Global Privacy Control', () => {
    expect(optedOut({ dnt: '1' })).toBe(true);
    expect(optedOut({ 'sec-gpc': '1' })).toBe(true);
    expect(optedOut({ dnt: '0' })).toBe(false);
    expect(optedOut({})).toBe(false);
  });

  it('hashes a visitor per day and site, never keeping the IP', () => {
    const a = visitorHash('salt-1', '203.0.113.9', IPHONE, 'shw_abcd');
    expect(a).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(a).not.toContain('203');
    expect(visitorHash('salt-1', '203.0.113.9', IPHONE, 'shw_abcd')).toBe(a);
    expect(visitorHash('salt-2', '203.0.113.9', IPHONE, 'shw_abcd')).not.toBe(a);
    expect(visitorHash('salt-1', '203.0.113.9', IPHONE, 'shw_other')).not.toBe(a);
    expect(visitorHash('salt-1', '203.0.113.9', PIXEL, 'shw_abcd')).not.toBe(a);
  });

  it('keeps only the referring host, not our own', () => {
    expect(referrerHost('https://www.gallery.example/shop?x=1#y', 'ar.example.com')).toBe('gallery.example');
    expect(referrerHost('https://ar.example.com/showcase/shw_x', 'ar.example.com')).toBe('');
    expect(referrerHost('android-app://com.google.android.gm', 'ar.example.com')).toBe('');
    expect(referrerHost('not a url', 'ar.example.com')).toBe('');
    expect(referrerHost(undefined, 'ar.example.com')).toBe('');
    expect(utcDay(new Date('2026-11-24T23:59:59Z'))).toBe('2026-11-24');
    expect(previousDay('2026-03-01')).toBe('2026-02-28');
  });
});

describe('BeaconBody', () => {
  const param = (body: unknown) => {
    try {
      parseInput(BeaconBody, body);
    } catch (e) {
      if (e instanceof UserError) return e.param;
      throw e;
    }
    return undefined;
  };
  const ok = { site: 'shw_abcd1234', events: [{ id: 'e1abcdefgh', kind: 'view', surface: 'showcase' }] };

  it('takes a beacon and names what is wrong in a bad one', () => {
    expect(param(ok)).toBeUndefined();
    expect(param({ ...ok, site: 'usr_abcd' })).toBe('site');
    expect(param({ ...ok, events: [] })).toBe('events');
    expect(param({ ...ok, events: Array.from({ length: 21 }, (_, i) => ({ ...ok.events[0], id: `e${i}abcdefgh` })) })).toBe('events');
    expect(param({ ...ok, events: [{ ...ok.events[0], kind: 'purchase' }] })).toBe('events[0].kind');
    expect(param({ ...ok, events: [{ ...ok.events[0], kind: 'ar_launch' }] })).toBe('events[0].platform');
    expect(param({ ...ok, events: [{ ...ok.events[0], kind: 'variant_select' }] })).toBe('events[0].variant');
    expect(param({ ...ok, events: [{ ...ok.events[0], ip: '1.2.3.4' }] })).toBe('events[0].ip');
    expect(param({ ...ok, events: [{ ...ok.events[0], id: 'x' }] })).toBe('events[0].id');
    expect(param({ ...ok, owner: 'usr_1' })).toBe('owner');
    expect(() => parseInput(BeaconBody, 'nope')).toThrow(UserError);
  });
});

describe('aggregate', () => {
  it('folds a batch into one row per day and dimension, and the new unique visitors per showcase and item', () => {
    const first = { showcase: true, item: true };
    const { rows, visitors } = aggregate([
      event({ firstVisit: first }),
      event({ firstVisit: { showcase: false, item: false } }),
      event({ visitor: 'v2', firstVisit: first }),
      event({ kind: 'ar_launch', platform: 'quick_look' }),
      event({ itemId: 0, surface: 'showcase', visitor: 'v3', firstVisit: { showcase: true, item: false } }),
      event({ day: '2026-11-25', firstVisit: first }),
    ]);
    expect(rows.map((r) => [r.day, r.itemId, r.event, r.platform, r.count])).toEqual([
      ['2026-11-24', 12, 'view', '', 3],
      ['2026-11-24', 12, 'ar_launch', 'quick_look', 1],
      ['2026-11-24', 0, 'view', '', 1],
      ['2026-11-25', 12, 'view', '', 1],
    ]);
    expect(visitors.map((v) => [v.day, v.itemId, v.n])).toEqual([
      ['2026-11-24', 0, 3],
      ['2026-11-24', 12, 2],
      ['2026-11-25', 0, 1],
      ['2026-11-25', 12, 1],
    ]);
  });
});

describe('MemoryAnalyticsBuffer', () => {
  it('reads after a cursor in order, trims what is counted, and takes an event id once', async () => {
    const b = new MemoryAnalyticsBuffer();
    await b.append([event(), event({ kind: 'interact' }), event({ kind: 'ar_launch', platform: 'webxr' })]);
    const all = await b.readAfter(null, 10);
    expect(all.map((e) => e.event.kind)).toEqual(['view', 'interact', 'ar_launch']);
    expect([...all.map((e) => e.id)].sort()).toEqual(all.map((e) => e.id));
    expect((await b.readAfter(all[0].id, 1)).map((e) => e.event.kind)).toEqual(['interact']);
    await b.trimThrough(all[1].id);
    expect((await b.readAfter(null, 10)).map((e) => e.id)).toEqual([all[2].id]);
    expect([...(await b.firstSeen(['a', 'b'], 60_000))]).toEqual(['a', 'b']);
    expect([...(await b.firstSeen(['b', 'c'], 60_000))]).toEqual(['c']);
    expect(await b.salt('2026-11-24')).toBe(await b.salt('2026-11-24'));
    // The day's first event of a visitor is marked, on the showcase and on the item.
    const n = await b.appendFresh(
      [
        { id: 'f1', event: event({ visitor: 'w1' }) },
        { id: 'f2', event: event({ visitor: 'w1' }) },
        { id: 'f3', event: event({ visitor: 'w1', itemId: 13 }) },
      ],
      60_000,
    );
    expect(n).toBe(3);
    expect((await b.readAfter(all[2].id, 10)).map((e) => e.event.firstVisit)).toEqual([
      { showcase: true, item: true },
      { showcase: false, item: false },
      { showcase: false, item: true },
    ]);
    expect(await b.salt('2026-11-25')).not.toBe(await b.salt('2026-11-24'));
  });
});

describe('MemoryAnalyticsBuffer as a queue', () => {
  it('a flusher reading and trimming in batches gets every event once, in order, and empties the queue', async () => {
    const b = new MemoryAnalyticsBuffer();
    for (let i = 0; i < 10_000; i++) await b.append([event({ itemId: i })]);
    const seen: number[] = [];
    let cursor: string | null = null;
    let lastId = '';
    for (;;) {
      const batch = await b.readAfter(cursor, 3_000);
      if (!batch.length) break;
      for (const e of batch) {
        expect(e.id > lastId).toBe(true);
        lastId = e.id;
        seen.push(e.event.itemId);
      }
      cursor = batch[batch.length - 1].id;
      await b.trimThrough(cursor);
      // Events appended while a flush runs come after its cursor.
      if (seen.length === 3_000) await b.append([event({ itemId: 10_000 })]);
    }
    expect(seen).toEqual(Array.from({ length: 10_001 }, (_, i) => i));
    expect(b.held).toBe(0);
    // A stale cursor (before what is held) reads from the front; one past the end reads nothing.
    await b.append([event({ kind: 'interact' })]);
    expect((await b.readAfter('0', 10)).map((e) => e.event.kind)).toEqual(['interact']);
    expect(await b.readAfter('9', 10)).toEqual([]);
  });

  it('ids keep increasing when the clock steps back', async () => {
    const b = new MemoryAnalyticsBuffer();
    const now = jest.spyOn(Date, 'now');
    try {
      now.mockReturnValue(Date.parse('2026-11-28T12:00:00Z'));
      await b.append([event(), event()]);
      now.mockReturnValue(Date.parse('2026-11-28T11:59:00Z'));
      await b.append([event({ kind: 'interact' })]);
    } finally {
      now.mockRestore();
    }
    const ids = (await b.readAfter(null, 10)).map((e) => e.id);
    expect(ids).toHaveLength(3);
    expect([...new Set(ids)].sort()).toEqual(ids);
    expect((await b.readAfter(ids[1], 10)).map((e) => e.event.kind)).toEqual(['interact']);
  });
});
