import { TokenLeases } from './token-leases';

/** A shared store like the Redis script: one counter per bucket and window; records each round trip. */
function store(windowMs = 1000) {
  let t = 0;
  const counts = new Map<string, { count: number; endsAt: number }>();
  const trips: number[] = [];
  const take = async (bucket: string, n: number) => {
    trips.push(n);
    let w = counts.get(bucket);
    if (!w || w.endsAt <= t) counts.set(bucket, (w = { count: 0, endsAt: t + windowMs }));
    w.count += n;
    return [w.count, w.endsAt - t] as [number, number];
  };
  return { take, trips, now: () => t, advance: (ms: number) => (t += ms), counts };
}

describe('TokenLeases', () => {
  it('a quiet key counts exactly: one count per request while its leases are small', async () => {
    const s = store();
    const leases = new TokenLeases(s.take, 32, s.now);
    const d = await leases.consume('k', 100, 1000);
    expect(d).toEqual({ allowed: true, limit: 100, remaining: 99, resetMs: 1000 });
    expect(s.trips).toEqual([1]);
  });

  it('a busy key takes growing leases: 100 requests in far fewer round trips, counts and remaining exact', async () => {
    const s = store();
    const leases = new TokenLeases(s.take, 32, s.now);
    const remaining: number[] = [];
    for (let i = 0; i < 100; i++) remaining.push((await leases.consume('k', 1000, 1000)).remaining);
    expect(remaining).toEqual(Array.from({ length: 100 }, (_, i) => 1000 - (i + 1)));
    expect(s.trips.length).toBeLessThan(10);
    expect(s.trips).toEqual([1, 2, 4, 8, 16, 32, 32, 32]);
  });

  it('two processes on one store never let more than the limit through, and nothing over the limit costs a round trip', async () => {
    const s = store();
    const a = new TokenLeases(s.take, 32, s.now);
    const b = new TokenLeases(s.take, 32, s.now);
    let allowed = 0;
    for (let i = 0; i < 150; i++) if ((await (i % 3 ? a : b).consume('k', 50, 1000)).allowed) allowed++;
    expect(allowed).toBeLessThanOrEqual(50);
    expect(allowed).toBeGreaterThanOrEqual(40); // counts one process took and did not use are lost to the other
    const trips = s.trips.length;
    for (let i = 0; i < 20; i++) expect((await a.consume('k', 50, 1000)).allowed).toBe(false);
    expect(s.trips.length).toBe(trips);
  });

  it('a new window starts over with a lease of one', async () => {
    const s = store();
    const leases = new TokenLeases(s.take, 32, s.now);
    for (let i = 0; i < 3; i++) await leases.consume('k', 2, 1000);
    expect((await leases.consume('k', 2, 1000)).allowed).toBe(false);
    s.advance(1000);
    expect(await leases.consume('k', 2, 1000)).toMatchObject({ allowed: true, remaining: 1 });
    expect(s.trips[s.trips.length - 1]).toBe(1);
  });

  it('concurrent requests share one round trip', async () => {
    const s = store();
    const leases = new TokenLeases(s.take, 32, s.now);
    await leases.consume('k', 1000, 1000);
    const ds = await Promise.all(Array.from({ length: 2 }, () => leases.consume('k', 1000, 1000)));
    expect(ds.map((d) => d.remaining).sort()).toEqual([997, 998]);
    expect(s.trips).toEqual([1, 2]);
  });

  it('a store error reaches the caller (the service then lets the request through)', async () => {
    const leases = new TokenLeases(async () => {
      throw new Error('redis down');
    });
    await expect(leases.consume('k', 10, 1000)).rejects.toThrow('redis down');
  });

  it('counts a cost: beacons of 20 events use whole leases, and no more than the limit gets through', async () => {
    const s = store();
    const leases = new TokenLeases(s.take, 32, s.now);
    let allowed = 0;
    for (let i = 0; i < 12; i++) if ((await leases.consume('ip', 200, 1000, 20)).allowed) allowed += 20;
    expect(allowed).toBe(200);
    expect(s.counts.get('ip')!.count).toBeLessThanOrEqual(200);
    expect(s.trips.length).toBeLessThanOrEqual(10);
    // A cost that cannot fit is refused without a round trip; one that fits still goes through.
    const trips = s.trips.length;
    expect((await leases.consume('ip', 200, 1000, 1)).allowed).toBe(false);
    expect(s.trips.length).toBe(trips);
  });

  it('two processes counting costs never let more than the limit through', async () => {
    const s = store();
    const a = new TokenLeases(s.take, 32, s.now);
    const b = new TokenLeases(s.take, 32, s.now);
    let events = 0;
    for (let i = 0; i < 100; i++) {
      const cost = 1 + (i % 20);
      if ((await (i % 2 ? a : b).consume('ip', 600, 1000, cost)).allowed) events += cost;
    }
    expect(events).toBeLessThanOrEqual(600);
    expect(events).toBeGreaterThanOrEqual(500);
  });

  it('a cost over the whole limit is refused at once', async () => {
    const s = store();
    const leases = new TokenLeases(s.take, 32, s.now);
    expect(await leases.consume('ip', 10, 1000, 11)).toMatchObject({ allowed: false, remaining: 10 });
    expect(s.trips).toEqual([]);
    expect((await leases.consume('ip', 10, 1000, 10)).allowed).toBe(true);
  });
});
