/**
 * A lean HTTP/1.1 keep-alive client for the load generators (wrk's and autocannon's way): a fixed pool of
 * sockets opened before the clock starts, one request in flight per socket, requests written as one string,
 * answers read by their status line and Content-Length (or a chunked body's last chunk). A request due while
 * every socket is busy waits for the next free one, first come first served, and its wait counts in its
 * latency. Node's `http` client costs the generator more CPU per request than the service it measures spends,
 * on a machine where both share two cores; this one spends a fraction of it. Bench-only: no redirects, no
 * TLS, no pipelining, no `Expect`.
 */
import { connect, type Socket } from 'node:net';

interface Pending {
  head: string;
  body: string;
  resolve: (status: number) => void;
}

class Conn {
  private buf = '';
  private current: Pending | null = null;
  constructor(
    readonly socket: Socket,
    private readonly done: (c: Conn) => void,
  ) {
    socket.setNoDelay(true);
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => this.read(chunk));
    socket.on('error', () => this.fail());
    socket.on('close', () => this.fail());
  }

  send(p: Pending): void {
    this.current = p;
    this.buf = '';
    this.socket.write(p.body ? p.head + p.body : p.head, 'latin1');
  }

  private read(chunk: string): void {
    this.buf += chunk;
    const end = this.buf.indexOf('\r\n\r\n');
    if (end < 0 || !this.current) return;
    const head = this.buf.slice(0, end);
    const status = Number(head.slice(9, 12));
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    const bodyLength = this.buf.length - end - 4;
    if (length ? bodyLength < Number(length[1]) : /\r\ntransfer-encoding: *chunked/i.test(head) && !this.buf.endsWith('0\r\n\r\n')) return;
    const p = this.current;
    this.current = null;
    this.buf = '';
    p.resolve(status);
    this.done(this);
  }

  private fail(): void {
    const p = this.current;
    this.current = null;
    p?.resolve(0);
  }
}

/**
 * @example
 * const pool = await RawHttpPool.open('http://127.0.0.1:3000', 256);
 * const status = await pool.request('POST', '/api/events', { 'content-type': 'text/plain' }, '{"site":"shw_x","events":[]}');
 * pool.close();
 */
export class RawHttpPool {
  private readonly idle: Conn[] = [];
  private readonly waiting: Pending[] = [];
  private readonly all: Conn[] = [];

  private constructor(private readonly host: string) {}

  /** Opens `connections` sockets to `origin` (http only) and resolves when all are connected. */
  static async open(origin: string, connections: number): Promise<RawHttpPool> {
    const u = new URL(origin);
    const pool = new RawHttpPool(u.host);
    await Promise.all(
      Array.from(
        { length: connections },
        () =>
          new Promise<void>((resolve, reject) => {
            const socket = connect({ host: u.hostname, port: Number(u.port || 80) }, () => {
              const c = new Conn(socket, (free) => pool.release(free));
              pool.all.push(c);
              pool.idle.push(c);
              resolve();
            });
            socket.once('error', reject);
          }),
      ),
    );
    return pool;
  }

  /** The answer's status (0 when the connection failed). */
  request(method: string, path: string, headers: Record<string, string>, body = ''): Promise<number> {
    let head = `${method} ${path} HTTP/1.1\r\nhost: ${this.host}\r\n`;
    for (const [k, v] of Object.entries(headers)) head += `${k}: ${v}\r\n`;
    if (body) head += `content-length: ${Buffer.byteLength(body)}\r\n`;
    head += '\r\n';
    return new Promise((resolve) => {
      const p: Pending = { head, body, resolve };
      const c = this.idle.pop();
      if (c) c.send(p);
      else this.waiting.push(p);
    });
  }

  private release(c: Conn): void {
    const next = this.waiting.shift();
    if (next) c.send(next);
    else this.idle.unshift(c);
  }

  close(): void {
    for (const c of this.all) c.socket.destroy();
  }
}
