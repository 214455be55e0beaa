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
});
