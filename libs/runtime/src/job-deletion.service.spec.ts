import type { DataDeletionRepository, DeletableJob } from '@app/persistence';
import type { StoragePort } from '@app/storage';
import { JobDeletion, jobStorageKeys } from './job-deletion.service';

const job = (id: string, extra: Partial<DeletableJob> = {}): DeletableJob => ({
  id,
  publicId: null,
  ownerId: 'u1',
  status: 'completed',
  input: {},
  result: null,
  checkpoints: {},
  ...extra,
});

/** An in-memory repository: `expired` jobs are handed out in order, deleted ones drop out. */
function fakeRepo(expired: DeletableJob[]) {
  const deleted: string[] = [];
  const batches: number[] = [];
  const repo = {
    async expiredJobs(_before: Date, limit: number) {
      const left = expired.filter((j) => !deleted.includes(j.id)).slice(0, limit);
      batches.push(left.length);
      return left;
    },
    async deleteFinishedJobs(ids: string[]) {
      deleted.push(...ids);
      return ids;
    },
  } as unknown as DataDeletionRepository;
  return { repo, deleted, batches };
}

function fakeStorage(failOn: (key: string) => boolean = () => false) {
  const removed: string[] = [];
  const storage = {
    async delete(key: string) {
      if (failOn(key)) throw new Error('storage down');
      removed.push(key);
    },
  } as unknown as StoragePort;
  return { storage, removed };
}

describe('jobStorageKeys', () => {
  it('names the model files, the motion files and the upload a job recorded, and nothing of other jobs', () => {
    const keys = jobStorageKeys(
      job('v2_a', {
        input: { upload_key: 'uploads/emb_x/upl_1.png' },
        result: {
          files: { glb: { key: 'models/v2_a/model.glb' }, poster: { key: 'models/v2_a/poster.avif' } },
          other: 'models/v2_b/model.glb',
        },
        checkpoints: { motion: { output: { storageKey: 'motion/v2_a/luma-op1.mp4' } } },
      }),
    );
    expect(keys).toEqual(
      expect.arrayContaining([
        'models/v2_a/model.glb',
        'models/v2_a/model.usdz',
        'models/v2_a/poster.avif',
        'models/v2_a/poster.png',
        'motion/v2_a/luma-op1.mp4',
        'motion/v2_a/source.jpg',
        'uploads/emb_x/upl_1.png',
      ]),
    );
    expect(keys).not.toContain('models/v2_b/model.glb');
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('JobDeletion.purgeExpired', () => {
  it('deletes expired jobs batch by batch, files before rows', async () => {
    const { repo, deleted, batches } = fakeRepo(Array.from({ length: 5 }, (_, i) => job(`v2_${i}`)));
    const { storage, removed } = fakeStorage();
    expect(await new JobDeletion(repo, storage).purgeExpired(new Date(), 2)).toBe(5);
    expect(batches).toEqual([2, 2, 1, 0]);
    expect(deleted).toEqual(['v2_0', 'v2_1', 'v2_2', 'v2_3', 'v2_4']);
    expect(removed).toContain('models/v2_4/model.glb');
  });

  it('keeps the row of a job whose files cannot be deleted, goes on with the others, and ends', async () => {
    const { repo, deleted, batches } = fakeRepo([job('v2_0'), job('v2_1'), job('v2_2')]);
    const { storage } = fakeStorage((k) => k.startsWith('models/v2_1/'));
    expect(await new JobDeletion(repo, storage).purgeExpired(new Date(), 2)).toBe(2);
    expect(deleted).toEqual(['v2_0', 'v2_2']);
    // The pass ends when only the failing job is left (no endless loop); the next sweep tries it again.
    expect(batches).toEqual([2, 2, 1]);
  });

  it('deletes again, once the rows are gone, a thumbnail a showcase page wrote after the files were deleted', async () => {
    const held = new Set(['models/v2_t/model.glb', 'models/v2_t/thumb-480.webp']);
    const storage = {
      async delete(key: string) {
        held.delete(key);
      },
    } as unknown as StoragePort;
    const repo = {
      async deleteFinishedJobs(ids: string[]) {
        // The page's lazy write lands here: after the first pass over the files, before the rows go.
        held.add('models/v2_t/thumb-480.webp');
        held.add('models/v2_t/thumb-1200.jpg');
        return ids;
      },
    } as unknown as DataDeletionRepository;
    expect(await new JobDeletion(repo, storage).deleteFinished([job('v2_t')], 'owner')).toEqual(['v2_t']);
    expect([...held]).toEqual([]);
  });

  it("deletes visitors' walls' files, then forgets them; a file that cannot be deleted keeps them recorded", async () => {
    const removed: string[] = [];
    const forgotten: string[][] = [];
    const broken = { key: undefined as string | undefined };
    const storage = {
      async delete(key: string) {
        if (key === broken.key) throw new Error('storage down');
        removed.push(key);
      },
    } as unknown as StoragePort;
    const scopes: unknown[] = [];
    const repo = {
      async visitorWalls(scope: unknown) {
        scopes.push(scope);
        return ['walls/visitor/shw_a/k1', 'walls/visitor/shw_a/k2'];
      },
      async forgetVisitorWalls(bases: string[]) {
        forgotten.push(bases);
      },
    } as unknown as DataDeletionRepository;
    const deletion = new JobDeletion(repo, storage);
    expect(await deletion.deleteVisitorWalls({ showcaseId: 7, itemId: 3 })).toBe(2);
    expect(scopes).toEqual([{ showcaseId: 7, itemId: 3 }]);
    expect(removed.sort()).toEqual(
      ['k1', 'k2'].flatMap((k) => ['model.glb', 'model.usdz', 'poster.jpg'].map((f) => `walls/visitor/shw_a/${k}/${f}`)).sort(),
    );
    expect(forgotten).toEqual([['walls/visitor/shw_a/k1', 'walls/visitor/shw_a/k2']]);
    broken.key = 'walls/visitor/shw_a/k2/model.usdz';
    await expect(deletion.deleteVisitorWalls({ ownerId: 'usr_x' })).rejects.toThrow('storage down');
    expect(forgotten).toHaveLength(1);
  });

  it('never deletes an unfinished job', async () => {
    const { repo, deleted } = fakeRepo([]);
    const { storage, removed } = fakeStorage();
    expect(await new JobDeletion(repo, storage).deleteFinished([job('v2_r', { status: 'converting' })], 'owner')).toEqual([]);
    expect(deleted).toEqual([]);
    expect(removed).toEqual([]);
  });
});
