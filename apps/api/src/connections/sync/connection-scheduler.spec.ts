import type { DataSource } from 'typeorm';
import {
  AccountRepository,
  newShopConnectionId,
  ShopConnectionRepository,
  type ShopConnectionRow,
  ShowcaseRepository,
} from '@app/persistence';
import { openPglite, openPostgres } from '@app/testing';
import { ConnectionScheduler } from './connection-scheduler.service';
import type { ConnectionSync, SyncScope } from './connection-sync.service';
import { SyncScheduleRepository } from './sync-schedule.repository';

const sealed = { keyId: 'k1', iv: 'aXY=', tag: 'dGFn', ciphertext: 'c2VhbGVk' };

/** A stand-in for the sync: records what it was asked to start, as the real one marks the connection running. */
function fakeSync(connections: ShopConnectionRepository) {
  const started: { publicId: string; scope: SyncScope }[] = [];
  const sync = {
    runningCount: () => 0,
    async start(c: ShopConnectionRow, scope: SyncScope) {
      started.push({ publicId: c.publicId, scope });
      const id = `imp_${started.length}`;
      await connections.update(c.id, { lastSync: { at: new Date().toISOString(), import_id: id, outcome: 'running' } });
      return id;
    },
  };
  return { sync: sync as unknown as ConnectionSync, started };
}

/** Scheduled syncs on both databases: due by interval since the last start (or creation), claimed once across processes. */
describe.each([
  ['PGlite (embedded)', openPglite],
  ['Postgres server (scaled)', openPostgres(20)],
])('scheduled syncs on %s', (_name, open) => {
  let ds: DataSource;
  let drop: () => Promise<void>;
  let connections: ShopConnectionRepository;
  let schedule: SyncScheduleRepository;
  let seq = 0;
  beforeAll(async () => {
    ({ ds, drop } = await open());
    connections = new ShopConnectionRepository(ds);
    schedule = new SyncScheduleRepository(ds);
  });
  afterAll(() => drop());

  /** A connection created `ageHours` ago, with that interval. */
  async function connection(ageHours: number, intervalHours = 24): Promise<ShopConnectionRow> {
    const u = await new AccountRepository(ds).createUser({ email: `s${Date.now()}${seq++}@x.co` });
    const { showcase } = await new ShowcaseRepository(ds).create(
      { ownerId: u.id, layout: 'branded', logoUrl: null, description: null, customLinks: [], branding: {} },
      [],
      { enforceSlots: false, showcaseCents: 0, pictureCents: 0 },
      { pipeline: 'showcase-picture' },
    );
    const c = await connections.create({
      publicId: newShopConnectionId(),
      ownerId: u.id,
      showcaseId: showcase.id,
      platform: 'shopify',
      shop: `s${seq}.myshopify.com`,
      push: 'metafields',
      units: 'cm',
      frames: {},
      syncIntervalHours: intervalHours,
      secrets: sealed,
    });
    await ds.query(`UPDATE "shop_connections" SET "created_at" = now() - make_interval(hours => $2::int) WHERE "id" = $1`, [
      c.id,
      ageHours,
    ]);
    return c;
  }
  const dueIds = async () => (await schedule.due(100)).map((d) => d.publicId);

  it('is due once its interval has passed since its creation or its last sync; never when paused, unauthorized or off', async () => {
    const fresh = await connection(1);
    const old = await connection(25);
    const off = await connection(1000, 0);
    const paused = await connection(25);
    await connections.update(paused.id, { status: 'paused' });
    const refused = await connection(25);
    await connections.markUnauthorized(refused.id);
    const synced = await connection(100);
    await connections.update(synced.id, {
      lastSync: { at: new Date(Date.now() - 3600_000).toISOString(), import_id: 'imp_x', outcome: 'completed' },
    });
    const ids = await dueIds();
    expect(ids).toContain(old.publicId);
    for (const c of [fresh, off, paused, refused, synced]) expect(ids).not.toContain(c.publicId);
  });

  it('starts a due sync in exactly one of several processes ticking at once, then not again within the interval', async () => {
    const c = await connection(48);
    const a = fakeSync(connections);
    const b = fakeSync(connections);
    const processes = [new ConnectionScheduler(schedule, connections, a.sync), new ConnectionScheduler(schedule, connections, b.sync)];
    await Promise.all(processes.map((p) => p.tick()));
    const starts = [...a.started, ...b.started].filter((s) => s.publicId === c.publicId);
    expect(starts).toEqual([{ publicId: c.publicId, scope: { kind: 'full' } }]);
    expect((await connections.byPublicId(c.publicId))?.lastSync).toMatchObject({ outcome: 'running' });
    await Promise.all(processes.map((p) => p.tick()));
    expect([...a.started, ...b.started].filter((s) => s.publicId === c.publicId)).toHaveLength(1);
    expect(await dueIds()).not.toContain(c.publicId);
  });

  it('a claim is a compare-and-set on the last sync read', async () => {
    const c = await connection(30);
    const [due] = (await schedule.due(100)).filter((d) => d.publicId === c.publicId);
    expect(due.lastSyncAt).toBeNull();
    const next = { at: new Date().toISOString(), import_id: null, outcome: 'running' };
    expect(await schedule.claim(c.publicId, null, next)).toBe(true);
    expect(await schedule.claim(c.publicId, null, next)).toBe(false);
    expect(await schedule.claim(c.publicId, next.at, { ...next, at: new Date(Date.now() + 1).toISOString() })).toBe(true);
  });
});
