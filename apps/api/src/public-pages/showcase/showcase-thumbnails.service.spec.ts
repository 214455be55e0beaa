import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { DataSource } from 'typeorm';
import { DataDeletionRepository, JobRepository } from '@app/persistence';
import { thumbKey } from '@app/plugins';
import { JobDeletion } from '@app/runtime';
import { LocalStorageAdapter, type StoragePort } from '@app/storage';
import { openPostgres } from '@app/testing';
import { ShowcaseThumbnails } from './showcase-thumbnails.service';

/** A gate a test opens by hand: `wait` resolves once `open` was called. */
function gate() {
  let open!: () => void;
  const wait = new Promise<void>((ok) => (open = ok));
  return { wait, open };
}

/**
 * The pages' lazy thumbnail racing the picture's deletion, on the real database and the local storage:
 * whichever way the two interleave, no thumbnail of a deleted job is left in storage.
 */
describe('ShowcaseThumbnails and a deletion running at the same time', () => {
  let ds: DataSource;
  let drop: () => Promise<void>;
  let jobs: JobRepository;
  let storage: StoragePort;
  let deletions: DataDeletionRepository;
  let poster: Buffer;
  const shape = { w: 20, h: 30 };

  beforeAll(async () => {
    ({ ds, drop } = await openPostgres()());
    jobs = new JobRepository(ds);
    deletions = new DataDeletionRepository(ds);
    storage = new LocalStorageAdapter(mkdtempSync(join(tmpdir(), 'thumbs-')), 'http://localhost');
    poster = await sharp({ create: { width: 200, height: 300, channels: 3, background: '#3366aa' } })
      .jpeg()
      .toBuffer();
  });
  afterAll(() => drop());

  /** A completed picture job with its poster stored. */
  async function picture() {
    const j = await jobs.create({
      kind: 'v2.picture',
      pipeline: 'showcase-picture',
      ownerId: null,
      input: {},
      idPrefix: 'v2',
      withPublicPage: true,
    });
    await ds.query(`UPDATE "jobs" SET "status" = 'completed', "finished_at" = now() WHERE "id" = $1`, [j.id]);
    const posterKey = `models/${j.id}/poster.jpg`;
    await storage.put(posterKey, poster, 'image/jpeg');
    const row = { id: j.id, publicId: j.publicId, ownerId: null, status: 'completed', input: {}, result: null, checkpoints: {} } as const;
    return { id: j.id, posterKey, thumb: thumbKey(j.id, '480.webp'), row };
  }

  /** The storage, with the thumbnail's write held until `beforeWrite` resolves; `reached` once it waits there. */
  function holdingWrites(beforeWrite: Promise<void>): { held: StoragePort; reached: Promise<void> } {
    const reached = gate();
    const held = Object.assign(Object.create(storage) as StoragePort, {
      put: async (key: string, body: Buffer, type: string) => {
        if (key.includes('/thumb-')) {
          reached.open();
          await beforeWrite;
        }
        return storage.put(key, body, type);
      },
    });
    return { held, reached: reached.wait };
  }

  it('makes and keeps a missing thumbnail of a live picture', async () => {
    const p = await picture();
    expect(await new ShowcaseThumbnails(storage, jobs).ensure(p.id, p.posterKey, '480.webp', shape)).toBe(p.thumb);
    expect((await sharp(Buffer.concat(await (await storage.read(p.thumb)).toArray())).metadata()).width).toBe(480);
  });

  it('removes what it wrote when the whole deletion ran while it encoded, and answers null', async () => {
    const p = await picture();
    const deleted = gate();
    const { held, reached } = holdingWrites(deleted.wait);
    const making = new ShowcaseThumbnails(held, jobs).ensure(p.id, p.posterKey, '480.webp', shape);
    // The poster was read and encoded; the page's write waits for the deletion to end.
    await reached;
    expect(await new JobDeletion(deletions, storage).deleteFinished([p.row], 'owner')).toEqual([p.id]);
    deleted.open();
    expect(await making).toBeNull();
    expect(await storage.stat(p.thumb)).toBeNull();
  });

  it("leaves nothing when its write lands between the deletion's files and its rows", async () => {
    const p = await picture();
    const filesGone = gate();
    const { held, reached } = holdingWrites(filesGone.wait);
    const making = new ShowcaseThumbnails(held, jobs).ensure(p.id, p.posterKey, '480.webp', shape);
    await reached;
    // The deletion's rows wait until the page has written the thumbnail and checked the job (still there).
    const repo = Object.assign(Object.create(deletions) as DataDeletionRepository, {
      deleteFinishedJobs: async (ids: string[], reason: 'owner') => {
        // The deletion's files are gone: the page's write lands now.
        filesGone.open();
        expect(await making).toBe(p.thumb);
        return deletions.deleteFinishedJobs(ids, reason);
      },
    });
    expect(await new JobDeletion(repo, storage).deleteFinished([p.row], 'owner')).toEqual([p.id]);
    expect(await storage.stat(p.thumb)).toBeNull();
  });

  it('answers null, writing nothing, for a picture deleted before its poster was read', async () => {
    const p = await picture();
    await new JobDeletion(deletions, storage).deleteFinished([p.row], 'owner');
    expect(await new ShowcaseThumbnails(storage, jobs).ensure(p.id, p.posterKey, '480.webp', shape)).toBeNull();
    expect(await storage.stat(p.thumb)).toBeNull();
  });
});
