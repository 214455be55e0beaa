import { connect, type Socket } from 'node:net';
import Fastify from 'fastify';
import { registerUnusedConnectionClose } from './unused-connections';

/** Whether `p` settles within `ms` (a liveness check: the close must happen at all, not at a given speed). */
const within = (p: Promise<unknown>, ms: number) =>
  Promise.race([p.then(() => 'closed' as const), new Promise<'still open'>((r) => setTimeout(() => r('still open'), ms).unref())]);

const open = (port: number) =>
  new Promise<Socket>((resolve) => {
    const s = connect(port, '127.0.0.1', () => resolve(s));
    s.on('error', () => undefined);
  });

describe('registerUnusedConnectionClose', () => {
  it('closes the server although a client holds a connection it never sent on, and lets a request in flight finish', async () => {
    const app = Fastify();
    registerUnusedConnectionClose(app);
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    app.get('/slow', async () => {
      await released;
      return { ok: true };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as { port: number }).port;
    const unused = await open(port);
    const busy = await open(port);
    const answer = new Promise<string>((resolve) => {
      let text = '';
      busy.on('data', (d) => (text += d.toString()));
      busy.on('close', () => resolve(text));
    });
    busy.write('GET /slow HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    await new Promise((r) => setTimeout(r, 100));

    const closing = app.close();
    // The request in flight is answered, whole, before the server is gone.
    release();
    expect(await answer).toMatch(/^HTTP\/1\.1 200[\s\S]*"ok":true/);
    // Without the hook the unused connection held the close until Node's headers timeout (60 s and more).
    expect(await within(closing, 10_000)).toBe('closed');
    expect(unused.destroyed || unused.readableEnded).toBe(true);
  });
});
