import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import type { AppConfig } from '@app/config';
import { AccountRepository, DataDeletionRepository, ShowcaseRepository, ShowcaseWallRepository } from '@app/persistence';
import { VISITOR_WALL_FILES } from '@app/plugins';
import { JobDeletion } from '@app/runtime';
import { LocalStorageAdapter } from '@app/storage';
import { openPglite } from '@app/testing';
import { RetentionSweeper } from './retention-sweeper.service';

const DAY = 86_400_000;

/** The sweep against PGlite and local storage: visitors' walls idle past WALL_VISITOR_MAX_AGE_DAYS go, files and rows. */
describe('RetentionSweeper', () => {
  let ds: DataSource;
  let drop: () => Promise<void>;
  beforeAll(async () => ({ ds, drop } = await openPglite()));
  afterAll(() => drop());

  it("deletes visitors' walls not served for WALL_VISITOR_MAX_AGE_DAYS, in batches, even with RETENTION_DAYS unset", async () => {
    const storage = new LocalStorageAdapter(mkdtempSync(join(tmpdir(), 'sweep-')), 'http://127.0.0.1');
    const u = await new AccountRepository(ds).createUser({ email: `sweep${Date.now()}@x.co` });
    const { showcase: s } = await new ShowcaseRepository(ds).create(
      { ownerId: u.id, layout: 'branded', logoUrl: null, description: null, customLinks: [], branding: {} },
      [],
      { enforceSlots: false, showcaseCents: 0, pictureCents: 0 },
      { pipeline: 'showcase-picture' },
    );
    const walls = new ShowcaseWallRepository(ds);
    const bases = ['old1', 'old2', 'fresh'].map((k) => `walls/visitor/${s.publicId}/${k}`);
    for (const base of bases) {
      await walls.recordVisitorWall(s.id, base, [1, 2], 3);
      for (const f of VISITOR_WALL_FILES) await storage.put(`${base}/${f}`, Buffer.from('x'), 'application/octet-stream');
    }
    await ds.query(`UPDATE "visitor_walls" SET "last_used_at" = now() - interval '31 days' WHERE "base" IN ($1, $2)`, [bases[0], bases[1]]);
    const config = {
      retention: { maxAgeMs: null, sweepIntervalMs: 3_600_000, batchSize: 1 },
      visitorWalls: { maxAgeMs: 30 * DAY },
    } as unknown as AppConfig;
    const sweeper = new RetentionSweeper(config, new JobDeletion(new DataDeletionRepository(ds), storage));
    await sweeper.sweep();
    const left: { base: string }[] = await ds.query(`SELECT "base" FROM "visitor_walls" WHERE "showcase_id" = $1`, [s.id]);
    expect(left.map((r) => r.base)).toEqual([bases[2]]);
    for (const f of VISITOR_WALL_FILES) {
      expect(await storage.stat(`${bases[0]}/${f}`)).toBeNull();
      expect(await storage.stat(`${bases[1]}/${f}`)).toBeNull();
      expect(await storage.stat(`${bases[2]}/${f}`)).not.toBeNull();
    }
    // 40 days on, the fresh one is idle too.
    await sweeper.sweep(new Date(Date.now() + 40 * DAY));
    expect(await ds.query(`SELECT "base" FROM "visitor_walls" WHERE "showcase_id" = $1`, [s.id])).toEqual([]);
  });
});
