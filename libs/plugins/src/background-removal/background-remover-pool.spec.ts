import { monitorEventLoopDelay } from 'node:perf_hooks';
import sharp from 'sharp';
import { BackgroundRemoverPool } from '.';

// Real onnxruntime in a real worker thread (the .ts worker is compiled by @swc/core there): no mocks.
const W = 640;
const H = 480;

/** A red disc with a dark outline on a flat light-grey background (ISNet finds it as salient). */
async function discPicture(): Promise<Buffer> {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="100%" height="100%" fill="#d8d8d8"/>` +
    `<circle cx="${W / 2}" cy="${H / 2}" r="120" fill="#c01010" stroke="#202020" stroke-width="8"/></svg>`;
  return sharp(Buffer.from(svg)).ensureAlpha().raw().toBuffer();
}

const alphaAt = (rgba: Buffer, x: number, y: number) => rgba[(y * W + x) * 4 + 3];

describe('BackgroundRemoverPool', () => {
  it('cuts out in a worker process started on first use, keeps the event loop free, and closes', async () => {
    const pool = new BackgroundRemoverPool({ workers: 1, inferShortSide: 256, threads: 1 });
    expect(pool.workerCount).toBe(0);
    const rgba = await discPicture();
    const copy = Buffer.from(rgba);
    await pool.cutOut(rgba, W, H); // warm-up: model load and session creation
    expect(pool.workerCount).toBe(1);
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    const [a, b] = await Promise.all([pool.cutOut(rgba, W, H), pool.cutOut(rgba, W, H)]);
    clearInterval(timer);
    delay.disable();
    expect(rgba.equals(copy)).toBe(true); // the caller's frame is untouched
    expect(a.length).toBe(W * H * 4);
    expect(a.equals(b)).toBe(true);
    expect(alphaAt(a, W / 2, H / 2)).toBeGreaterThan(200);
    expect(alphaAt(a, 10, 10)).toBeLessThan(30);
    expect(a[((H / 2) * W + W / 2) * 4]).toBe(rgba[((H / 2) * W + W / 2) * 4]); // RGB kept
    // The main thread ran its timer while the worker inferred (inline, the loop stalls for each inference).
    expect(ticks).toBeGreaterThan(2);
    expect(pool.workerCount).toBe(1);
    await pool.close();
    expect(pool.workerCount).toBe(0);
    await expect(pool.cutOut(rgba, W, H)).rejects.toThrow(/closed/);
  });

  it('warm() starts a worker and makes its session before the first frame; a closed pool refuses it', async () => {
    const pool = new BackgroundRemoverPool({ workers: 1, inferShortSide: 256, threads: 1 });
    try {
      await pool.warm(W, H);
      expect(pool.workerCount).toBe(1);
      const out = await pool.cutOut(await discPicture(), W, H);
      expect(alphaAt(out, W / 2, H / 2)).toBeGreaterThan(200);
      expect(pool.workerCount).toBe(1);
    } finally {
      await pool.close();
    }
    await expect(pool.warm()).rejects.toThrow(/closed/);
  });

  it('fails a frame the worker rejects, and the worker goes on', async () => {
    const pool = new BackgroundRemoverPool({ workers: 1, inferShortSide: 256, threads: 1 });
    try {
      await expect(pool.cutOut(Buffer.alloc(10), W, H)).rejects.toThrow(/bytes/);
      const out = await pool.cutOut(await discPicture(), W, H);
      expect(out.length).toBe(W * H * 4);
    } finally {
      await pool.close();
    }
  });

  it('a worker that dies fails its frame; the next frame starts a new one', async () => {
    const pool = new BackgroundRemoverPool({ workers: 1, inferShortSide: 256, threads: 1 });
    try {
      const rgba = await discPicture();
      const first = pool.cutOut(rgba, W, H);
      (pool as any).slots[0].worker.kill('SIGKILL');
      await expect(first).rejects.toThrow(/worker stopped/);
      expect(pool.workerCount).toBe(0);
      expect((await pool.cutOut(rgba, W, H)).length).toBe(W * H * 4);
      expect(pool.workerCount).toBe(1);
    } finally {
      await pool.close();
    }
  });

  it('rejects a bad worker count', () => {
    expect(() => new BackgroundRemoverPool({ workers: 0 })).toThrow(RangeError);
  });
});
