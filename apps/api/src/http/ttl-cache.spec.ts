import { TtlCache } from './ttl-cache';

describe('TtlCache', () => {
  it('reuses an answer within the time to live, reads again after it', async () => {
    let t = 0;
    let reads = 0;
    const cache = new TtlCache<number>({ ttlMs: 2_000, now: () => t });
    const load = async () => ++reads;
    expect(await cache.get('a', load)).toBe(1);
    t = 1_999;
    expect(await cache.get('a', load)).toBe(1);
    t = 2_000;
    expect(await cache.get('a', load)).toBe(2);
    expect(reads).toBe(2);
  });

  it('shares one read between concurrent misses of one key; other keys read on their own', async () => {
    let reads = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const cache = new TtlCache<string>();
    const load = (v: string) => async () => {
      reads++;
      await gate;
      return v;
    };
    const all = Promise.all([cache.get('a', load('A')), cache.get('a', load('A2')), cache.get('b', load('B'))]);
    release();
    expect(await all).toEqual(['A', 'A', 'B']);
    expect(reads).toBe(2);
  });

  it('does not keep a failure: the next ask reads again', async () => {
    const cache = new TtlCache<string>();
    await expect(cache.get('a', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(cache.size).toBe(0);
    expect(await cache.get('a', async () => 'ok')).toBe('ok');
  });

  it('holds at most maxEntries keys, dropping the oldest', async () => {
    const cache = new TtlCache<number>({ maxEntries: 3 });
    for (let i = 0; i < 10; i++) await cache.get(`k${i}`, async () => i);
    expect(cache.size).toBe(3);
    let reads = 0;
    expect(await cache.get('k9', async () => ++reads)).toBe(9);
    expect(await cache.get('k0', async () => ++reads)).toBe(1);
  });
});
