import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { DataSource } from 'typeorm';
import type { AppConfig } from '@app/config';
import {
  AccountRepository,
  DataDeletionRepository,
  type JobRepository,
  ShowcaseItemRepository,
  type ShowcaseItemRow,
  ShowcaseRepository,
  type ShowcaseRow,
  ShowcaseWallRepository,
} from '@app/persistence';
import { writeCardGlb } from '@app/plugins';
import { JobDeletion } from '@app/runtime';
import { LocalStorageAdapter } from '@app/storage';
import { openPglite } from '@app/testing';
import { ApiError } from '../http/api-error';
import { MemoryRateLimiter } from '../http/rate-limit/memory-rate-limiter.adapter';
import { parseTogetherItems, VisitorWalls } from './visitor-walls.service';

/** The build thread from the sources (see test/support/ts-thread.js). */
const THREAD = {
  filename: join(__dirname, '../../../../test/support/ts-thread.js'),
  workerData: { entry: join(__dirname, '../../../../libs/plugins/src/gallery-wall/wall-build.thread.ts') },
};

const thrown = (fn: () => unknown): ApiError => {
  try {
    fn();
  } catch (e) {
    return e as ApiError;
  }
  throw new Error('expected an ApiError');
};

describe('parseTogetherItems', () => {
  it('reads the query as the framework decoded it, once: a `%` left in it is a 400 naming the entry, not a URIError', () => {
    // `items=1,%25zz` arrives decoded as `1,%zz`.
    const e = thrown(() => parseTogetherItems('1,%zz'));
    expect(e).toBeInstanceOf(ApiError);
    expect(e.status).toBe(400);
    expect(e.param).toBe('items[1]');
    // `%41` (from `%2541`) is not decoded a second time into `A`.
    expect(parseTogetherItems('1,2:%41')[1]).toEqual({ item_id: 2, variant_sku: '%41' });
    expect(parseTogetherItems('12,15:A2-OAK')).toEqual([
      { item_id: 12, variant_sku: null },
      { item_id: 15, variant_sku: 'A2-OAK' },
    ]);
  });
});

/** VisitorWalls against PGlite, local storage and the real build threads: keys, the limit, the byte cap. */
describe('VisitorWalls', () => {
  let ds: DataSource;
  let drop: () => Promise<void>;
  let storage: LocalStorageAdapter;
  let s: ShowcaseRow;
  let items: ShowcaseItemRow[];
  let walls: ShowcaseWallRepository;
  const keys: string[] = [];
  const root = mkdtempSync(join(tmpdir(), 'vw-'));
  // The build threads read the pictures' models with a local storage of their own on the same root.
  const config = {
    visitorWalls: { concurrency: 1, perMinute: 3, maxBytesPerShowcase: 0, maxAgeMs: 86_400_000 },
    storage: { driver: 'local', root },
    publicBaseUrl: 'http://127.0.0.1',
    dataDir: root,
  } as unknown as AppConfig;
  let service: VisitorWalls;
  let built = 0;

  beforeAll(async () => {
    ({ ds, drop } = await openPglite());
    storage = new LocalStorageAdapter(root, 'http://127.0.0.1');
    const accounts = new AccountRepository(ds);
    const showcases = new ShowcaseRepository(ds);
    const u = await accounts.createUser({ email: `vw${Date.now()}@x.co` });
    ({ showcase: s } = await showcases.create(
      { ownerId: u.id, layout: 'branded', logoUrl: null, description: null, customLinks: [], branding: {} },
      [],
      { enforceSlots: false, showcaseCents: 0, pictureCents: 0 },
      { pipeline: 'showcase-picture' },
    ));
    items = [];
    for (const id of [58, 59, 60, 61]) {
      const texture = await sharp({ create: { width: 96, height: 128, channels: 3, background: { r: id * 3, g: 90, b: 160 } } })
        .jpeg()
        .toBuffer();
      const glb = await writeCardGlb({ texture, mime: 'image/jpeg', alpha: 'opaque', width: 0.3, height: 0.4 });
      await storage.put(`models/v2_${id}/model.glb`, glb, 'model/gltf-binary');
      items.push({
        id,
        showcaseId: s.id,
        jobId: `v2_${id}`,
        status: 'completed',
        result: {
          files: { glb: { key: `models/v2_${id}/model.glb` }, poster: { key: `models/v2_${id}/poster.jpg` } },
          texture: { width: 96, height: 128 },
        },
        variants: null,
      } as unknown as ShowcaseItemRow);
    }
    walls = new ShowcaseWallRepository(ds);
    // Counts the builds: each runs the (shared) limiter once.
    const limiter = new MemoryRateLimiter();
    const counting = {
      consume: (k: string, limit: number, w: number) => {
        keys.push(k);
        built++;
        return limiter.consume(k, limit, w);
      },
      close: () => limiter.close(),
    };
    const jobs = {
      inputs: async (ids: string[]) => new Map(ids.map((id) => [id, { width_inches: 12, height_inches: 16 }])),
    } as unknown as JobRepository;
    service = new VisitorWalls(
      new ShowcaseItemRepository(ds),
      jobs,
      walls,
      new JobDeletion(new DataDeletionRepository(ds), storage),
      storage,
      config,
      counting,
      THREAD,
    );
  });
  afterAll(async () => {
    await service?.onModuleDestroy();
    await drop?.();
  });

  const files = async (picked: string, visitor = '203.0.113.1') => {
    const plan = await service.plan(s, picked, undefined, items);
    return { plan, files: await service.files(s, plan, visitor) };
  };
  const recorded = async () =>
    (await ds.query(`SELECT "base", "bytes" FROM "visitor_walls" WHERE "showcase_id" = $1 ORDER BY "base"`, [s.id])) as {
      base: string;
      bytes: string;
    }[];

  it('keys a set, not a sequence: 58,59 and 59,58 are one build, one key, laid out in canonical order', async () => {
    (config.visitorWalls as { maxBytesPerShowcase: number }).maxBytesPerShowcase = 1e9;
    const a = await files('58,59');
    const b = await files('59,58');
    expect(b.plan.key).toBe(a.plan.key);
    expect(b.plan.items).toBe('58,59');
    expect(b.plan.arrangement).toEqual(a.plan.arrangement);
    expect(b.plan.arrangement.items.map((p) => p.item_id)).toEqual([58, 59]);
    expect(b.files).toEqual(a.files);
    // The second was served from storage: one build, one record with its size.
    expect(built).toBe(1);
    const rows = await recorded();
    expect(rows).toHaveLength(1);
    expect(Number(rows[0].bytes)).toBe(a.files.glb.bytes + a.files.usdz.bytes + a.files.poster.bytes);
  }, 60_000);

  it('limits new builds per IPv6 /64, not per address', async () => {
    keys.length = 0;
    await files('58,60', '2001:db8:7:7::1');
    await files('58,61', '2001:db8:7:7:ffff::2');
    await files('59,60', '2001:db8:7:7:1234:5678:9abc:def0');
    expect(new Set(keys)).toEqual(new Set(['wall-visitor:2001:db8:7:7::/64']));
    const over = await files('59,61', '2001:db8:7:7::99').catch((e: unknown) => e);
    expect(over).toMatchObject({ status: 429 });
    // Another /64 has its own.
    await expect(files('59,61', '2001:db8:7:8::1')).resolves.toBeDefined();
  }, 60_000);

  it("keeps a showcase's visitor walls within its byte cap: a new build evicts the least recently used, files and rows", async () => {
    const before = await recorded();
    expect(before).toHaveLength(5);
    const size = Math.max(...before.map((r) => Number(r.bytes)));
    (config.visitorWalls as { maxBytesPerShowcase: number }).maxBytesPerShowcase = Math.floor(size * 2.5);
    // 58,59 was served last; the others an hour ago.
    await ds.query(`UPDATE "visitor_walls" SET "last_used_at" = now() - interval '1 hour'`);
    const kept = (await service.plan(s, '58,59', undefined, items)).key;
    await ds.query(`UPDATE "visitor_walls" SET "last_used_at" = now() WHERE "base" LIKE $1`, [`%/${kept}`]);
    const fresh = await files('60,61', '198.51.100.9');
    const after = await recorded();
    expect(after.map((r) => r.base).sort()).toEqual(
      [`walls/visitor/${s.publicId}/${kept}`, `walls/visitor/${s.publicId}/${fresh.plan.key}`].sort(),
    );
    expect(after.reduce((n, r) => n + Number(r.bytes), 0)).toBeLessThanOrEqual(config.visitorWalls.maxBytesPerShowcase);
    for (const r of before.filter((x) => !x.base.endsWith(kept))) expect(await storage.stat(`${r.base}/model.glb`)).toBeNull();
    expect(await storage.stat(`walls/visitor/${s.publicId}/${kept}/model.glb`)).not.toBeNull();
  }, 60_000);
});
