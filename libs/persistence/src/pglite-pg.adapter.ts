import { EventEmitter } from 'node:events';
import type { PGlite } from '@electric-sql/pglite';

/**
 * The slice of the `pg` module TypeORM's Postgres driver uses, served by PGlite (real Postgres in WASM),
 * so the embedded mode speaks the same SQL dialect and migrations as the scaled mode.
 *
 * PGlite has a single session: the pool hands out one client at a time, so TypeORM's transactions
 * never interleave.
 */
export function createPglitePgModule(db: PGlite): { Pool: new (opts?: unknown) => PglitePool } {
  class Pool extends PglitePool {
    constructor() {
      super(db);
    }
  }
  return { Pool };
}

type QueryCallback = (err: Error | null, result?: PgResult) => void;

interface PgResult {
  rows: unknown[];
  rowCount: number;
  command: string;
  fields: { name: string }[];
}

class PgliteClient extends EventEmitter {
  constructor(private readonly db: PGlite) {
    super();
  }

  query(text: string, params?: unknown[] | QueryCallback, cb?: QueryCallback): Promise<PgResult> | void {
    const callback = typeof params === 'function' ? params : cb;
    const values = Array.isArray(params) ? params : [];
    const run = this.run(text, values);
    if (callback) {
      run.then(
        (r) => callback(null, r),
        (e: Error) => callback(e),
      );
      return;
    }
    return run;
  }

  private async run(text: string, values: unknown[]): Promise<PgResult> {
    // PGlite runs in this thread, and its queries resolve as microtasks: a chain of them (a transaction of many
    // statements, an analytics flush) would hold the event loop until its end, with every request waiting.
    // One macrotask turn before each statement lets the requests that arrived meanwhile run between them.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const command = (/^\s*([A-Za-z]+)/.exec(text)?.[1] ?? '').toUpperCase();
    if (values.length === 0 && text.includes(';') && text.trim().replace(/;\s*$/, '').includes(';')) {
      // Several statements (migrations): the simple protocol.
      const results = await this.db.exec(text);
      const last = results[results.length - 1];
      return { rows: last?.rows ?? [], rowCount: last?.affectedRows ?? 0, command, fields: last?.fields ?? [] };
    }
    const r = await this.db.query(text, values.map(toPgliteParam));
    return { rows: r.rows, rowCount: r.affectedRows ?? r.rows.length, command, fields: r.fields };
  }
}

function toPgliteParam(v: unknown): unknown {
  // pg serialises plain objects to JSON for json/jsonb parameters; PGlite expects the same text.
  if (v !== null && typeof v === 'object' && !(v instanceof Date) && !Buffer.isBuffer(v) && !ArrayBuffer.isView(v)) {
    return JSON.stringify(v);
  }
  return v;
}

export class PglitePool extends EventEmitter {
  private readonly client: PgliteClient;
  private busy = false;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly db: PGlite) {
    super();
    this.client = new PgliteClient(db);
  }

  connect(cb?: (err: Error | null, client?: PgliteClient, release?: (err?: unknown) => void) => void): Promise<PgliteClient> | void {
    const acquired = new Promise<void>((ok) => {
      if (!this.busy) {
        this.busy = true;
        ok();
      } else this.waiting.push(ok);
    });
    const release = (): void => {
      const next = this.waiting.shift();
      if (next) next();
      else this.busy = false;
    };
    if (cb) {
      acquired.then(
        () => cb(null, this.client, release),
        (e: Error) => cb(e),
      );
      return;
    }
    return acquired.then(() => Object.assign(this.client, { release }));
  }

  async query(text: string, params?: unknown[]): Promise<PgResult> {
    const client = (await this.connect()) as PgliteClient & { release: () => void };
    try {
      return (await client.query(text, params)) as PgResult;
    } finally {
      client.release();
    }
  }

  end(cb?: (err?: Error) => void): Promise<void> | void {
    const done = this.db.close();
    if (cb) {
      done.then(
        () => cb(),
        (e: Error) => cb(e),
      );
      return;
    }
    return done;
  }
}
