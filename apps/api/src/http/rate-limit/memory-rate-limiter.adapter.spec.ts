import { MemoryRateLimiter } from './memory-rate-limiter.adapter';

describe('MemoryRateLimiter', () => {
  it('allows `limit` requests per window per bucket, then refuses until the window ends', async () => {
    let now = 1_000_000;
    const rl = new MemoryRateLimiter(() => now);
    const first = await rl.consume('key:a', 2, 60_000);
    expect(first).toEqual({ allowed: true, limit: 2, remaining: 1, resetMs: 60_000 });
    expect((await rl.consume('key:a', 2, 60_000)).allowed).toBe(true);
    now += 15_000;
    expect(await rl.consume('key:a', 2, 60_000)).toEqual({ allowed: false, limit: 2, remaining: 0, resetMs: 45_000 });
    expect((await rl.consume('key:b', 2, 60_000)).allowed).toBe(true);
    now += 45_000;
    expect(await rl.consume('key:a', 2, 60_000)).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('counts a cost: a beacon of 20 events takes 20; one that does not fit is refused and takes nothing', async () => {
    const rl = new MemoryRateLimiter(() => 0);
    for (let i = 0; i < 5; i++)
      expect(await rl.consume('ip:a', 110, 60_000, 20)).toMatchObject({ allowed: true, remaining: 110 - 20 * (i + 1) });
    expect(await rl.consume('ip:a', 110, 60_000, 20)).toMatchObject({ allowed: false, remaining: 10 });
    expect(await rl.consume('ip:a', 110, 60_000, 10)).toMatchObject({ allowed: true, remaining: 0 });
    expect((await rl.consume('ip:a', 110, 60_000)).allowed).toBe(false);
  });
});
