import { REDIS_URL } from '@app/testing';
import { RedisRateLimiter } from './redis-rate-limiter.adapter';

/** The scaled mode's limiter against the real Redis: two API processes sharing one count. */
describe('RedisRateLimiter', () => {
  const ns = `ratelimit-spec-${Date.now()}`;
  let a: RedisRateLimiter;
  let b: RedisRateLimiter;
  beforeAll(async () => {
    a = new RedisRateLimiter(REDIS_URL, ns);
    b = new RedisRateLimiter(REDIS_URL, ns);
    // No offline queue: a command before the connection is up fails at once (the limiter then fails open).
    for (const l of [a, b])
      for (let i = 0; ; i++) {
        try {
          await l.consume('connected', 1_000_000, 1000);
          break;
        } catch (e) {
          if (i > 100) throw e;
          await new Promise((r) => setTimeout(r, 20));
        }
      }
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });

  it('counts costs across processes: beacons of 20 events, never more events than the limit', async () => {
    let events = 0;
    for (let i = 0; i < 100; i++) if ((await (i % 2 ? a : b).consume('events-ip:203.0.113.9', 600, 60_000, 20)).allowed) events += 20;
    expect(events).toBeLessThanOrEqual(600);
    expect(events).toBeGreaterThanOrEqual(500);
    // Another bucket has its own count; a cost of 1 is the default.
    expect(await a.consume('events-ip:203.0.113.10', 2, 60_000)).toMatchObject({ allowed: true, remaining: 1 });
    expect(await a.consume('events-ip:203.0.113.10', 2, 60_000, 2)).toMatchObject({ allowed: false });
    expect(await a.consume('events-ip:203.0.113.10', 2, 60_000)).toMatchObject({ allowed: true, remaining: 0 });
  });
});
