import { type ChildProcess, spawn } from 'node:child_process';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { freePort, sleep } from './app-process';

/**
 * A TCP proxy in front of a real server, to inject outages at the network level: `down()` refuses
 * connections and cuts open ones (a stopped server), `hang()` accepts and holds everything without
 * forwarding (a frozen server), `up()` restores.
 */
export class TcpProxy {
  private server?: Server;
  private readonly pairs = new Set<[Socket, Socket | undefined]>();
  private mode: 'pass' | 'hang' = 'pass';

  private constructor(
    readonly port: number,
    private readonly target: { host: string; port: number },
  ) {}

  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const p = new TcpProxy(await freePort(), target);
    await p.up();
    return p;
  }

  async up(): Promise<void> {
    this.mode = 'pass';
    for (const [a, b] of this.pairs) {
      a.resume();
      b?.resume();
    }
    if (this.server) return;
    this.server = createServer((client) => this.accept(client));
    await new Promise<void>((ok, no) => this.server!.once('error', no).listen(this.port, '127.0.0.1', () => ok()));
  }

  private accept(client: Socket): void {
    const pair: [Socket, Socket | undefined] = [client, undefined];
    this.pairs.add(pair);
    client
      .on('error', () => undefined)
      .on('close', () => {
        pair[1]?.destroy();
        this.pairs.delete(pair);
      });
    if (this.mode === 'hang') {
      client.pause();
      return;
    }
    const upstream = createConnection(this.target);
    pair[1] = upstream;
    upstream.on('error', () => client.destroy()).on('close', () => client.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
  }

  /** Stops listening and cuts every open connection. */
  async down(): Promise<void> {
    const s = this.server;
    this.server = undefined;
    for (const [a, b] of this.pairs) {
      a.destroy();
      b?.destroy();
    }
    this.pairs.clear();
    if (s) await new Promise<void>((ok) => s.close(() => ok()));
  }

  /** Keeps connections open but forwards nothing, like a server that stopped answering. */
  hang(): void {
    this.mode = 'hang';
    for (const [a, b] of this.pairs) {
      a.pause();
      b?.pause();
    }
  }

  async close(): Promise<void> {
    await this.down();
  }
}

/** A private redis-server on a free port, which a test may kill, freeze and start again. */
export class RedisServer {
  private proc?: ChildProcess;

  private constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async start(): Promise<RedisServer> {
    const r = new RedisServer(await freePort());
    await r.restart();
    return r;
  }

  async restart(): Promise<void> {
    this.proc = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    for (let i = 0; i < 100; i++) {
      if (await this.ping()) return;
      await sleep(50);
    }
    throw new Error(`redis-server on ${this.port} did not start`);
  }

  private ping(): Promise<boolean> {
    return new Promise((ok) => {
      const s = createConnection({ host: '127.0.0.1', port: this.port });
      s.on('error', () => ok(false));
      s.on('connect', () => s.write('PING\r\n'));
      s.on('data', (d) => {
        ok(d.toString().startsWith('+PONG'));
        s.destroy();
      });
    });
  }

  async kill(): Promise<void> {
    const p = this.proc;
    if (!p || p.exitCode !== null || p.signalCode !== null) return;
    const exited = new Promise((ok) => p.once('exit', ok));
    p.kill('SIGKILL');
    await exited;
  }

  freeze(): void {
    this.proc?.kill('SIGSTOP');
  }

  thaw(): void {
    this.proc?.kill('SIGCONT');
  }
}
