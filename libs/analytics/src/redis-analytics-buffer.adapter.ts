import IORedis, { type Redis } from 'ioredis';
import { type CountedEvent, VISITOR_MARK_TTL_MS, visitorMark } from './analytics-event';
import type { AnalyticsBufferPort, LoggedEvent } from './analytics-buffer.port';
import { fingerprint, SEEN_GENERATIONS, SEEN_MAX_IDS } from './seen-ids';
import { newSalt } from './visitors';

/** Stream length kept while the flusher is behind (approximate trim). */
const MAX_EVENTS = 1_000_000;

/** Takes the lock, or extends it when this holder has it. */
const LOCK = `local v = redis.call('GET', KEYS[1])
if v == false then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end
if v == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
return 0`;

/**
 * The ids taken, in time generations (like `SeenIds`): per kind of id (`class`, one per time to live), a
 * hash `<prefix><class>` with the current generation `g` and when it opened `t`, and a SET of fingerprints per
 * generation `<prefix><class>:<g>`, expiring its ttl after its last id went in. A new generation opens every
 * ttl / N or when the current one holds its share of the cap; generation g - N - 1 is then dropped (whatever it
 * still holds was dropped early: added to `<prefix>evicted`). A check is one SMISMEMBER per live generation
 * (at most N + 1) for all of a beacon's ids: its cost does not grow with the ids held. Time is Redis's own, so
 * every process rolls the same generations.
 */
const GENERATIONS_LUA = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local function live(prefix, class, ttl, gens, cap)
  local head = prefix .. class
  local h = redis.call('HMGET', head, 'g', 't')
  local g = tonumber(h[1])
  if not g then
    g = 0
    redis.call('HSET', head, 'g', g, 't', now)
  elseif now - tonumber(h[2]) >= math.floor(ttl / gens) or redis.call('SCARD', head .. ':' .. g) >= cap then
    g = g + 1
    redis.call('HSET', head, 'g', g, 't', now)
    local old = head .. ':' .. (g - gens - 1)
    local left = redis.call('SCARD', old)
    if left > 0 then
      redis.call('DEL', old)
      redis.call('INCRBY', prefix .. 'evicted', left)
    end
  end
  redis.call('PEXPIRE', head, ttl * 2)
  local keys = {}
  for i = 0, gens do keys[#keys + 1] = head .. ':' .. (g - i) end
  return keys
end
local function seen(keys, fps)
  local out = {}
  if #fps == 0 then return out end
  for _, k in ipairs(keys) do
    local r = redis.call('SMISMEMBER', k, unpack(fps))
    for i = 1, #fps do if r[i] == 1 then out[fps[i]] = true end end
  end
  return out
end
local function remember(keys, fps, ttl)
  if #fps == 0 then return end
  redis.call('SADD', keys[1], unpack(fps))
  redis.call('PEXPIRE', keys[1], ttl)
end
`;

/**
 * ARGV: 1 the prefix, 2 the generations, 3 the cap per generation, 4 the class, 5 its ttl, then fingerprints.
 * Returns 1 for each fingerprint not taken in the ttl (now taken), 0 for the others.
 */
const FIRST_SEEN = `${GENERATIONS_LUA}
local gens, cap, ttl = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[5])
local keys = live(ARGV[1], ARGV[4], ttl, gens, cap)
local fps = {}
for i = 6, #ARGV do fps[#fps + 1] = ARGV[i] end
local known = seen(keys, fps)
local out, fresh = {}, {}
for i, fp in ipairs(fps) do
  if known[fp] then out[i] = 0 else out[i] = 1; known[fp] = true; fresh[#fresh + 1] = fp end
end
remember(keys, fresh, ttl)
return out`;

/**
 * For each event (ARGV from 9 on, four at a time: its id's fingerprint, its JSON, its showcase visitor mark's,
 * its item visitor mark's or ''): takes the id for ARGV[5] ms unless taken, and then takes the visitor marks for
 * ARGV[7] ms and appends the event with `v` = 1 (first of the day on the showcase) + 2 (on the item).
 * ARGV: 1 the prefix, 2 the generations, 3 the cap per generation, 4 the ids' class, 5 their ttl, 6 the marks'
 * class, 7 their ttl, 8 the stream's length. KEYS[1]: the stream.
 */
const APPEND_FRESH = `${GENERATIONS_LUA}
local prefix, gens, cap = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local idTtl, markTtl = tonumber(ARGV[5]), tonumber(ARGV[7])
local idKeys = live(prefix, ARGV[4], idTtl, gens, cap)
local ids = {}
for i = 9, #ARGV, 4 do ids[#ids + 1] = ARGV[i] end
local known = seen(idKeys, ids)
local fresh, taken, marks = {}, {}, {}
for i = 9, #ARGV, 4 do
  if not known[ARGV[i]] then
    known[ARGV[i]] = true
    fresh[#fresh + 1] = i
    taken[#taken + 1] = ARGV[i]
    marks[#marks + 1] = ARGV[i + 2]
    if ARGV[i + 3] ~= '' then marks[#marks + 1] = ARGV[i + 3] end
  end
end
remember(idKeys, taken, idTtl)
if #fresh == 0 then return 0 end
local markKeys = live(prefix, ARGV[6], markTtl, gens, cap)
local visited = seen(markKeys, marks)
local newMarks = {}
for _, i in ipairs(fresh) do
  local v = 0
  if not visited[ARGV[i + 2]] then v = v + 1; visited[ARGV[i + 2]] = true; newMarks[#newMarks + 1] = ARGV[i + 2] end
  if ARGV[i + 3] ~= '' and not visited[ARGV[i + 3]] then v = v + 2; visited[ARGV[i + 3]] = true; newMarks[#newMarks + 1] = ARGV[i + 3] end
  redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[8], '*', 'e', ARGV[i + 1], 'v', v)
end
remember(markKeys, newMarks, markTtl)
return #fresh`;

/** A fingerprint every process computes alike (Redis hashes its sets with its own random seed). */
const fp = (id: string): string => {
  const [a, b] = fingerprint(id, 0);
  return `${a.toString(36)}.${b.toString(36)}`;
};

/**
 * The scaled mode's buffer, shared by every API process: a Redis stream for the log (`XADD`, read with
 * `XRANGE` after the flusher's cursor, trimmed with `XTRIM MINID`), the event ids and visitor marks taken as
 * fingerprints in generations of SETs (bounded, like the embedded mode's `SeenIds`), a `SET NX EX` salt
 * per day, and a lock key. Keys are namespaced like the queue.
 */
export class RedisAnalyticsBuffer implements AnalyticsBufferPort {
  readonly name: string;
  private readonly redis: Redis;
  private readonly key: (k: string) => string;
  /** The day's salt once read: it does not change within its day (a round trip less per beacon). */
  private salted: { day: string; salt: string } | null = null;

  private readonly generations: number;
  private get scripts(): Record<'arAppendFresh' | 'arFirstSeen', (...args: string[]) => Promise<unknown>> {
    return this.redis as unknown as Record<'arAppendFresh' | 'arFirstSeen', (...args: string[]) => Promise<unknown>>;
  }
  private readonly perGeneration: number;

  /** `seen`: the id generations and their cap (tests). */
  constructor(url: string, namespace: string, seen: { generations?: number; maxIds?: number } = {}) {
    this.generations = seen.generations ?? SEEN_GENERATIONS;
    this.perGeneration = Math.max(1, Math.floor((seen.maxIds ?? SEEN_MAX_IDS) / this.generations));
    this.redis = new IORedis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false });
    // Errors surface on the commands; without a listener ioredis would print every reconnect attempt.
    this.redis.on('error', () => undefined);
    // EVALSHA with the scripts' hashes (ioredis falls back to EVAL once per connection): a beacon does not send
    // the script's text each time.
    this.redis.defineCommand('arAppendFresh', { numberOfKeys: 1, lua: APPEND_FRESH });
    this.redis.defineCommand('arFirstSeen', { numberOfKeys: 0, lua: FIRST_SEEN });
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
    // One round trip: ids and visitor marks taken and the events appended in one script (a beacon's other round
    // trips are its rate limits', leased), once the day's salt is known.
    const args = events.flatMap(({ id, event: e }) => [
      fp(id),
      JSON.stringify(e),
      fp(visitorMark(e, 0)),
      e.itemId ? fp(visitorMark(e, e.itemId)) : '',
    ]);
    return Number(
      await this.scripts.arAppendFresh(
        this.key('events'),
        this.key('seen:'),
        String(this.generations),
        String(this.perGeneration),
        `t${ttlMs}`,
        String(ttlMs),
        `t${VISITOR_MARK_TTL_MS}`,
        String(VISITOR_MARK_TTL_MS),
        String(MAX_EVENTS),
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
    const out = (await this.scripts.arFirstSeen(
      this.key('seen:'),
      String(this.generations),
      String(this.perGeneration),
      `t${ttlMs}`,
      String(ttlMs),
      ...ids.map(fp),
    )) as number[];
    return new Set(ids.filter((_, i) => out[i] === 1));
  }

  /** Ids dropped early at the cap, over every process. */
  async seenEvicted(): Promise<number> {
    return Number((await this.redis.get(this.key('seen:evicted'))) ?? 0);
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
