import { BuildSlots } from './build-slots';

const tick = () => new Promise((r) => setImmediate(r));

describe('BuildSlots', () => {
  it('runs at most `size` at once, the rest in order, and never more even when a new one arrives as a slot frees', async () => {
    const slots = new BuildSlots(() => 2, 10);
    let now = 0;
    let most = 0;
    const order: number[] = [];
    const gates: (() => void)[] = [];
    const job = (i: number) =>
      slots.run(async () => {
        now++;
        most = Math.max(most, now);
        order.push(i);
        await new Promise<void>((r) => gates.push(r));
        now--;
        return i;
      });
    const all = [1, 2, 3, 4].map(job);
    await tick();
    expect(order).toEqual([1, 2]);
    expect(slots.load).toEqual({ running: 2, waiting: 2 });
    gates.shift()!();
    // A newcomer right as the slot is handed over must queue behind 3 and 4.
    all.push(job(5));
    await tick();
    expect(order).toEqual([1, 2, 3]);
    while (gates.length) {
      gates.shift()!();
      await tick();
    }
    for (let k = 0; k < 3; k++) {
      gates.splice(0).forEach((g) => g());
      await tick();
    }
    expect(await Promise.all(all)).toEqual([1, 2, 3, 4, 5]);
    expect(order).toEqual([1, 2, 3, 4, 5]);
    expect(most).toBe(2);
    expect(slots.load).toEqual({ running: 0, waiting: 0 });
  });

  it('frees the slot when a build fails, and refuses with 503 busy beyond the waiting cap', async () => {
    const slots = new BuildSlots(() => 1, 1);
    let release!: () => void;
    const first = slots.run(() => new Promise<void>((r) => (release = r)));
    const second = slots.run(async () => {
      throw new Error('build failed');
    });
    await expect(slots.run(async () => 'x')).rejects.toMatchObject({ status: 503, code: 'busy' });
    release();
    await first;
    await expect(second).rejects.toThrow('build failed');
    expect(await slots.run(async () => 'after')).toBe('after');
    expect(slots.load).toEqual({ running: 0, waiting: 0 });
  });
});
