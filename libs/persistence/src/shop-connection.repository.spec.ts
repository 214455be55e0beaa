import type { DataSource } from 'typeorm';
import { openPglite, openPostgres } from '@app/testing';
import {
  AccountRepository,
  newShopConnectionId,
  type NewShopConnection,
  ShopAlreadyConnectedError,
  ShopConnectionRepository,
  ShowcaseRepository,
} from './index';

const sealed = { keyId: 'k1', iv: 'aXY=', tag: 'dGFn', ciphertext: 'c2VhbGVk' };

/** Shop connections on both databases: one per shop and showcase, reads by owner, changes, cascade with the showcase. */
describe.each([
  ['PGlite (embedded)', openPglite],
  ['Postgres server (scaled)', openPostgres(20)],
])('ShopConnectionRepository on %s', (_name, open) => {
  let ds: DataSource;
  let drop: () => Promise<void>;
  let accounts: AccountRepository;
  let showcases: ShowcaseRepository;
  let repo: ShopConnectionRepository;
  beforeAll(async () => {
    ({ ds, drop } = await open());
    accounts = new AccountRepository(ds);
    showcases = new ShowcaseRepository(ds);
    repo = new ShopConnectionRepository(ds);
  });
  afterAll(() => drop());

  async function owner() {
    const u = await accounts.createUser({ email: `c${Date.now()}${Math.random()}@x.co` });
    const { showcase: s } = await showcases.create(
      { ownerId: u.id, layout: 'branded', logoUrl: null, description: null, customLinks: [], branding: {} },
      [],
      { enforceSlots: false, showcaseCents: 0, pictureCents: 0 },
      { pipeline: 'showcase-picture' },
    );
    return { userId: u.id, s };
  }
  const connection = (ownerId: string, showcaseId: number, shop = 'prints.myshopify.com'): NewShopConnection => ({
    publicId: newShopConnectionId(),
    ownerId,
    showcaseId,
    platform: 'shopify',
    shop,
    push: 'metafields',
    units: 'cm',
    frames: { 'Oak frame': 'classic', Unframed: null },
    syncIntervalHours: 24,
    secrets: sealed,
  });

  it('creates, lists and finds a connection by owner only; one per shop and showcase', async () => {
    const a = await owner();
    const b = await owner();
    const c = await repo.create(connection(a.userId, a.s.id));
    expect(c).toMatchObject({
      showcaseId: a.s.id,
      platform: 'shopify',
      status: 'active',
      frames: { Unframed: null },
      lastSync: null,
      secrets: sealed,
    });
    expect(c.publicId).toMatch(/^con_[a-z2-7]{24}$/);
    await expect(repo.create(connection(a.userId, a.s.id))).rejects.toBeInstanceOf(ShopAlreadyConnectedError);
    await repo.create(connection(a.userId, a.s.id, 'other.myshopify.com'));
    expect((await repo.list(a.userId)).map((r) => r.shop)).toEqual(['prints.myshopify.com', 'other.myshopify.com']);
    expect(await repo.find(b.userId, c.publicId)).toBeNull();
    expect(await repo.find(a.userId, 'con_x')).toBeNull();
    expect((await repo.byPublicId(c.publicId))?.id).toBe(c.id);
    expect(await repo.remove(b.userId, c.publicId)).toBe(false);
  });

  it('changes the given fields, keeps a pause over an unauthorized mark, and goes with its showcase', async () => {
    const a = await owner();
    const c = await repo.create(connection(a.userId, a.s.id));
    const changed = await repo.update(c.id, {
      units: 'in',
      frames: {},
      status: 'paused',
      lastSync: { at: '2026-01-01T00:00:00.000Z', import_id: 'imp_x', outcome: 'completed' },
      secrets: { ...sealed, ciphertext: 'bmV3' },
    });
    expect(changed).toMatchObject({ units: 'in', push: 'metafields', frames: {}, status: 'paused', lastSync: { import_id: 'imp_x' } });
    expect(changed!.secrets.ciphertext).toBe('bmV3');
    await repo.markUnauthorized(c.id);
    expect((await repo.find(a.userId, c.publicId))!.status).toBe('paused');
    await repo.update(c.id, { status: 'active' });
    await repo.markUnauthorized(c.id);
    expect((await repo.find(a.userId, c.publicId))!.status).toBe('unauthorized');
    await ds.query(`DELETE FROM "showcases" WHERE "id" = $1`, [a.s.id]);
    expect(await repo.list(a.userId)).toEqual([]);
    expect(await repo.update(c.id, { units: 'cm' })).toBeNull();
  });

  it("deletes one of the owner's connections", async () => {
    const a = await owner();
    const c = await repo.create(connection(a.userId, a.s.id));
    expect(await repo.remove(a.userId, c.publicId)).toBe(true);
    expect(await repo.remove(a.userId, c.publicId)).toBe(false);
  });
});
