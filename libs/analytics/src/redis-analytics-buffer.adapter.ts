import IORedis, { type Redis } from 'ioredis';
import type { CountedEvent } from './analytics-event';
import type { AnalyticsBufferPort, LoggedEvent } from './analytics-buffer.port';
import { newSalt } from './visitors';

/** Stream length kept while the flusher is behind (approximate trim). */
const MAX_EVENTS = 1_000_000;

/** Takes the lock, or extends it when this holder has it. */
const LOCK = `local v = redis.call('GET', KEYS[1])
if v == false then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end
if v == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
return 0`;

/**
 * The scaled mode's buffer, shared by every API process: a Redis stream for the log (`XADD`, read with
 * `XRANGE` after the flusher's cursor, trimmed with `XTRIM MINID`), `SET NX PX` keys for the event ids taken,
 * a `SET NX EX` salt per day, and a lock key. Keys are namespaced like the queue.
 */
export class RedisAnalyticsBuffer implements AnalyticsBufferPort {
  readonly name: string;
  private readonly redis: Redis;
  private readonly key: (k: string) => string;

  constructor(url: string, namespace: string) {
    this.redis = new IORedis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false });
    // Errors surface on the commands; without a listener ioredis would print every reconnect attempt.
    this.redis.on('error', () => undefined);
    this.key = (k) => `${namespace}:analytics:${k}`;
    this.name = `redis:${namespace}`;
  }

  async append(events: readonly CountedEvent[]): Promise<void> {
    if (!events.length) return;
    const p = this.redis.pipeline();
    for (const e of events) p.xadd(this.key('events'), 'MAXLEN', '~', String(MAX_EVENTS), '*', 'e', JSON.stringify(e));
    const out = await p.exec();
    const failed = out?.find(([err]) => err);
    if (failed) throw failed[0];
  }

  async readAfter(afterId: string | null, limit: number): Promise<LoggedEvent[]> {
    const rows = await this.redis.xrange(this.key('events'), afterId === null ? '-' : `(${afterId}`, '+', 'COUNT', limit);
    return rows.map(([id, fields]) => ({ id, event: JSON.parse(fields[fields.indexOf('e') + 1]) as CountedEvent }));
  }

  async trimThrough(id: string): Promise<void> {
    // MINID keeps ids >= the threshold: the one counted last stays, after the cursor it is never read again.
    await this.redis.xtrim(this.key('events'), 'MINID', id);
  }

  async firstSeen(ids: readonly string[], ttlMs: number): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const p = this.redis.pipeline();
    for (const id of ids) p.set(this.key(`seen:${id}`), '1', 'PX', ttlMs, 'NX');
    const out = (await p.exec()) ?? [];
    const fresh = new Set<string>();
    out.forEach(([err, ok], i) => {
      if (err) throw err;
      if (ok === 'OK') fresh.add(ids[i]);
    });
    return fresh;
  }

  async salt(day: string): Promise<string> {
    const k = this.key(`salt:${day}`);
    await this.redis.set(k, newSalt(), 'EX', 2 * 86_400, 'NX');
    const s = await this.redis.get(k);
    if (!s) throw new Error(`analytics: the salt of ${day} is missing from Redis`);
    return s;
  }

  async lock(holder: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.eval(LOCK, 1, this.key('flush-lock'), holder, String(ttlMs))) === 1;
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
