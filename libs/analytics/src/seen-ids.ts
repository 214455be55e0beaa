import { randomInt } from 'node:crypto';

/** Generations an id's time to live is split into: an id is remembered at least its ttl and at most 1/8 longer. */
export const SEEN_GENERATIONS = 8;

/**
 * Most ids remembered at once, per kind (event ids, visitor marks): twice the 1,000,000 event ids a busy
 * deployment takes in a day. Past it the oldest generation is dropped before its time (counted as evicted): a
 * flood can shorten how long ids are remembered, never make a check slower or the process bigger.
 */
export const SEEN_MAX_IDS = 2_000_000;

/**
 * A 64-bit fingerprint of a string as two unsigned 32-bit halves (cyrb53's mixing, both halves kept). Seeded:
 * the in-process tables use a random seed, so nobody outside can aim ids at one slot of them.
 *
 * @example
 * fingerprint('shw_4kq9x0:ev1', 0) // [2968012533, 1730163046]
 */
export function fingerprint(s: string, seed: number): [number, number] {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return [h1 >>> 0, h2 >>> 0];
}

/**
 * A set of 64-bit fingerprints in one typed array (open addressing, linear probing, at most half full): 16
 * bytes an entry at worst, outside the JS heap, so a million entries cost the garbage collector nothing.
 * (0, 0) marks an empty slot; a fingerprint that is (0, 0) is stored as (0, 1).
 */
class FingerprintSet {
  private slots: Uint32Array;
  private mask: number;
  size = 0;

  /** `capacity`: slots, a power of two (SeenIds makes each table at its generation's cap: it does not grow then). */
  constructor(capacity: number) {
    this.slots = new Uint32Array(capacity * 2);
    this.mask = capacity - 1;
  }

  has(a: number, b: number): boolean {
    if ((a | b) === 0) b = 1;
    for (let i = b & this.mask; ; i = (i + 1) & this.mask) {
      const x = this.slots[2 * i];
      const y = this.slots[2 * i + 1];
      if (x === a && y === b) return true;
      if ((x | y) === 0) return false;
    }
  }

  add(a: number, b: number): void {
    if ((a | b) === 0) b = 1;
    if ((this.size + 1) * 2 > this.mask + 1) this.grow();
    this.put(a, b);
  }

  private put(a: number, b: number): void {
    for (let i = b & this.mask; ; i = (i + 1) & this.mask) {
      const x = this.slots[2 * i];
      const y = this.slots[2 * i + 1];
      if (x === a && y === b) return;
      if ((x | y) === 0) {
        this.slots[2 * i] = a;
        this.slots[2 * i + 1] = b;
        this.size++;
        return;
      }
    }
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Uint32Array(old.length * 2);
    this.mask = old.length - 1;
    this.size = 0;
    for (let i = 0; i < old.length; i += 2) if ((old[i] | old[i + 1]) !== 0) this.put(old[i], old[i + 1]);
  }
}

interface Generation {
  opened: number;
  /** When the last id went in: the generation goes `ttlMs` after. */
  last: number;
  ids: FingerprintSet;
}

export interface SeenIdsOptions {
  /** How long an id is remembered (at least). */
  ttlMs: number;
  /** Into how many generations the ttl is split (default {@link SEEN_GENERATIONS}). */
  generations?: number;
  /** Most ids held at once (default {@link SEEN_MAX_IDS}). */
  maxIds?: number;
  now?: () => number;
}

/**
 * The ids seen in the last `ttlMs`, in time generations: a new generation opens every ttl / N or when the
 * current one holds maxIds / N ids; a whole generation goes when its last id is `ttlMs` old, or, past N + 1
 * generations, the oldest goes early (counted in {@link evicted}). A check looks an id's fingerprint up in at
 * most N + 1 tables: its cost does not grow with the number of ids held, and nothing is ever scanned whole.
 * Ids are kept as 64-bit fingerprints: two ids share one with a chance of about 1 in 10^13 at 2,000,000 held.
 *
 * @example
 * const seen = new SeenIds({ ttlMs: 86_400_000 });
 * seen.take('shw_4kq9x0:ev1'); // true: first time
 * seen.take('shw_4kq9x0:ev1'); // false: seen within the day
 */
export class SeenIds {
  private readonly gens: Generation[] = [];
  private readonly width: number;
  private readonly perGeneration: number;
  /** Slots in each generation's table (its cap fits at most half full: it never grows). */
  private readonly capacity: number;
  private readonly n: number;
  private readonly seed = randomInt(0, 2 ** 32);
  private readonly now: () => number;
  /** Ids dropped before their time because the cap was reached. */
  evicted = 0;
  /** Fingerprint table lookups so far (a check costs at most generations + 1 of them, however many ids are held). */
  lookups = 0;

  constructor(private readonly options: SeenIdsOptions) {
    this.n = options.generations ?? SEEN_GENERATIONS;
    this.width = Math.max(1, Math.floor(options.ttlMs / this.n));
    this.perGeneration = Math.max(1, Math.floor((options.maxIds ?? SEEN_MAX_IDS) / this.n));
    // At most half full when the generation holds its cap (linear probing stays short), a power of two.
    this.capacity = 2 ** Math.ceil(Math.log2(Math.max(16, 2 * this.perGeneration + 2)));
    this.now = options.now ?? Date.now;
  }

  /** Ids held now. */
  get size(): number {
    return this.gens.reduce((s, g) => s + g.ids.size, 0);
  }

  /** Generations held now (at most generations + 1). */
  get generations(): number {
    return this.gens.length;
  }

  /** Takes `id`: true when it was not seen in the last ttl (it is now), false when it was. */
  take(id: string): boolean {
    const now = this.now();
    const current = this.roll(now);
    const [a, b] = fingerprint(id, this.seed);
    for (let i = this.gens.length - 1; i >= 0; i--) {
      this.lookups++;
      if (this.gens[i].ids.has(a, b)) return false;
    }
    current.ids.add(a, b);
    current.last = now;
    return true;
  }

  /** The generation ids go into now: expired ones dropped, a new one opened when the current is old or full. */
  private roll(now: number): Generation {
    while (this.gens.length && this.gens[0].last + this.options.ttlMs <= now) this.gens.shift();
    let current = this.gens[this.gens.length - 1];
    if (!current || now - current.opened >= this.width || current.ids.size >= this.perGeneration) {
      // Made at its full size: growing a table by doubling stalled the event loop for up to 17 ms each time a
      // generation filled during a flood (rehashing 262,144 entries), and 4 MB a table at the default cap is
      // cheap next to that (untouched pages are never resident either).
      current = { opened: now, last: now, ids: new FingerprintSet(this.capacity) };
      this.gens.push(current);
      while (this.gens.length > this.n + 1) this.evicted += this.gens.shift()!.ids.size;
    }
    return current;
  }
}
