import { readFileSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { ROOT } from './app-process';

/** A local origin serving test media and misbehaving on purpose. */
export async function startMediaServer(
  extra: Record<string, Buffer> = {},
  opts: { tls?: { key: Buffer; cert: Buffer } } = {},
): Promise<{ base: string; stop: () => Promise<void> }> {
  const street = readFileSync(join(ROOT, 'test/fixtures/media/photo-street.jpg'));
  const files: Record<string, Buffer> = {
    '/street.jpg': street,
    '/truncated.jpg': street.subarray(0, Math.floor(street.length / 3)),
    '/page.html': Buffer.from('<!doctype html><html><body>not an image</body></html>'),
    '/doc.pdf': Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n'),
    ...extra,
  };
  const sockets = new Set<Socket>();
  const handler: RequestListener = (req, res) => {
    const path = new URL(req.url!, 'http://x').pathname;
    if (path === '/hang') return;
    if (path.startsWith('/redirect/')) {
      res.writeHead(302, { location: path.slice('/redirect'.length) });
      res.end();
      return;
    }
    if (path === '/slow.jpg') {
      setTimeout(() => {
        res.writeHead(200);
        res.end(street);
      }, 600);
      return;
    }
    const body = files[path];
    if (!body) {
      res.writeHead(404);
      res.end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    res.end(body);
  };
  const server: Server = opts.tls ? createHttpsServer(opts.tls, handler) : createServer(handler);
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    base: `${opts.tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}
