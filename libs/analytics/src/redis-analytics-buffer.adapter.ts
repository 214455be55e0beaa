import IORedis, { type Redis } from 'ioredis';
import { type CountedEvent, VISITOR_MARK_TTL_MS, visitorMark } from './analytics-event';
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
 * For each event (ARGV from 5 on, four at a time: its id, its JSON, its showcase visitor mark, its item visitor
 * mark or ''): takes the id for ARGV[1] ms unless taken, and then takes the visitor marks for ARGV[4] ms and
 * appends the event with `v` = 1 (first of the day on the showcase) + 2 (on the item). KEYS[1]: the stream.
 */
const APPEND_FRESH = `local n = 0
for i = 5, #ARGV, 4 do
  if redis.call('SET', ARGV[3] .. ARGV[i], '1', 'PX', ARGV[1], 'NX') then
    local v = 0
    if redis.call('SET', ARGV[3] .. ARGV[i + 2], '1', 'PX', ARGV[4], 'NX') then v = v + 1 end
    if ARGV[i + 3] ~= '' and redis.call('SET', ARGV[3] .. ARGV[i + 3], '1', 'PX', ARGV[4], 'NX') then v = v + 2 end
    redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[2], '*', 'e', ARGV[i + 1], 'v', v)
    n = n + 1
  end
end
return n`;

/**
 * The scaled mode's buffer, shared by every API process: a Redis stream for the log (`XADD`, read with
 * `XRANGE` after the flusher's cursor, trimmed with `XTRIM MINID`), `SET NX PX` keys for the event ids taken,
 * a `SET NX EX` salt per day, and a lock key. Keys are namespaced like the queue.
 */
export class RedisAnalyticsBuffer implements AnalyticsBufferPort {
  readonly name: string;
  private readonly redis: Redis;
  private readonly key: (k: string) => string;
  /** The day's salt once read: it does not change within its day (a round trip less per beacon). */
  private salted: { day: string; salt: string } | null = null;

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

  async appendFresh(events: readonly { id: string; event: CountedEvent }[], ttlMs: number): Promise<number> {
    if (!events.length) return 0;
    // One round trip: ids and visitor marks taken and the events appended in one script, so a beacon costs two
    // in all (this and the rate limit), once the day's salt is known.
    const args = events.flatMap(({ id, event: e }) => [id, JSON.stringify(e), visitorMark(e, 0), e.itemId ? visitorMark(e, e.itemId) : '']);
    return Number(
      await this.redis.eval(
        APPEND_FRESH,
        1,
        this.key('events'),
        String(ttlMs),
        String(MAX_EVENTS),
        this.key('seen:'),
        String(VISITOR_MARK_TTL_MS),
        ...args,
      ),
    );
  }

  async readAfter(afterId: string | null, limit: number): Promise<LoggedEvent[]> {
    const rows = await this.redis.xrange(this.key('events'), afterId === null ? '-' : `(${afterId}`, '+', 'COUNT', limit);
    return rows.map(([id, fields]) => {
      const event = JSON.parse(fields[fields.indexOf('e') + 1]) as CountedEvent;
      const at = fields.indexOf('v');
      const v = at < 0 ? 0 : Number(fields[at + 1]);
      return { id, event: { ...event, firstVisit: { showcase: (v & 1) === 1, item: (v & 2) === 2 } } };
    });
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
    if (this.salted?.day === day) return this.salted.salt;
    const k = this.key(`salt:${day}`);
    // Made by whichever process comes first; the others read it.
    const [, [, s]] = (await this.redis
      .multi()
      .set(k, newSalt(), 'EX', 2 * 86_400, 'NX')
      .get(k)
      .exec()) as [unknown, [unknown, string | null]];
    if (!s) throw new Error(`analytics: the salt of ${day} is missing from Redis`);
    this.salted = { day, salt: s };
    return s;
  }

  async lock(holder: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.eval(LOCK, 1, this.key('flush-lock'), holder, String(ttlMs))) === 1;
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
