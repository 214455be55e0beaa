import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * An in-memory WebDAV server (the RFC 4918 subset a file store needs: MKCOL, PUT, GET with Range,
 * HEAD, DELETE of a file or (recursively) a collection, PROPFIND depth 0 or 1) with Basic auth, for the
 * storage-webdav example backend.
 * Like nginx's dav module, a PUT into a missing collection is 409 and an aborted PUT stores nothing.
 */
export async function startWebDav(opts: { username: string; password: string; prefix?: string }) {
  const prefix = opts.prefix ?? '/dav';
  const files = new Map<string, { bytes: Buffer; type: string; etag: string; mtime: Date }>();
  const collections = new Set<string>(['']);
  const sockets = new Set<Socket>();
  const expected = `Basic ${Buffer.from(`${opts.username}:${opts.password}`).toString('base64')}`;
  const parentOf = (p: string) => p.split('/').slice(0, -1).join('/');

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url!, 'http://x');
    if (!url.pathname.startsWith(`${prefix}/`) && url.pathname !== prefix) return void res.writeHead(404).end();
    if (req.headers.authorization !== expected) return void res.writeHead(401, { 'www-authenticate': 'Basic realm="dav"' }).end();
    const path = decodeURIComponent(url.pathname.slice(prefix.length + 1)).replace(/\/+$/, '');
    const chunks: Buffer[] = [];
    let aborted = false;
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('aborted', () => (aborted = true));
    req.on('error', () => (aborted = true));
    req.on('end', () => {
      if (aborted) return;
      switch (req.method) {
        case 'PROPFIND': {
          if (!collections.has(path) && !files.has(path)) return void res.writeHead(404).end();
          const entry = (p: string) =>
            `<d:response><d:href>${prefix}/${p}</d:href><d:propstat><d:prop><d:resourcetype>${collections.has(p) ? '<d:collection/>' : ''}</d:resourcetype></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>`;
          const members =
            req.headers.depth === '1' && collections.has(path)
              ? [...collections, ...files.keys()].filter((p) => p !== '' && p !== path && parentOf(p) === path)
              : [];
          res.writeHead(207, { 'content-type': 'application/xml; charset=utf-8' });
          return void res.end(
            `<?xml version="1.0"?><d:multistatus xmlns:d="DAV:">${[path, ...members].map(entry).join('')}</d:multistatus>`,
          );
        }
        case 'MKCOL':
          if (collections.has(path) || files.has(path)) return void res.writeHead(405).end();
          if (!collections.has(parentOf(path))) return void res.writeHead(409).end();
          collections.add(path);
          return void res.writeHead(201).end();
        case 'PUT': {
          if (!collections.has(parentOf(path))) return void res.writeHead(409).end();
          const bytes = Buffer.concat(chunks);
          const existed = files.has(path);
          const etag = `"${createHash('md5').update(bytes).digest('hex')}"`;
          files.set(path, { bytes, type: req.headers['content-type'] ?? 'application/octet-stream', etag, mtime: new Date() });
          return void res.writeHead(existed ? 204 : 201, { etag }).end();
        }
        case 'GET':
        case 'HEAD': {
          const f = files.get(path);
          if (!f) return void res.writeHead(404).end();
          const headers = { 'content-type': f.type, etag: f.etag, 'last-modified': f.mtime.toUTCString(), 'accept-ranges': 'bytes' };
          const range = req.headers.range?.match(/^bytes=(\d+)-(\d+)$/);
          if (range && req.method === 'GET') {
            const start = Number(range[1]);
            const end = Math.min(Number(range[2]), f.bytes.length - 1);
            res.writeHead(206, {
              ...headers,
              'content-length': end - start + 1,
              'content-range': `bytes ${start}-${end}/${f.bytes.length}`,
            });
            return void res.end(f.bytes.subarray(start, end + 1));
          }
          res.writeHead(200, { ...headers, 'content-length': f.bytes.length });
          return void res.end(req.method === 'HEAD' ? undefined : f.bytes);
        }
        case 'DELETE':
          if (path !== '' && collections.has(path)) {
            const inside = (p: string) => p === path || p.startsWith(`${path}/`);
            for (const c of [...collections]) if (inside(c)) collections.delete(c);
            for (const f of [...files.keys()]) if (inside(f)) files.delete(f);
            return void res.writeHead(204).end();
          }
          if (!files.delete(path)) return void res.writeHead(404).end();
          return void res.writeHead(204).end();
        default:
          return void res.writeHead(405).end();
      }
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${base}${prefix}`,
    files,
    collections,
    stop: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}
