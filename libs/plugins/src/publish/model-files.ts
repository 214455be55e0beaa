import { OperationalError } from '@app/pipeline';
import { CONTENT_TYPES, type StoragePort } from '@app/storage';

// A model's stored files, in a file of their own: the variants, animated-AR and wall stages store models as
// the publish stage does, and the publish stage's result names the variants' records, so the variants
// taking this from the publish stage would close a circle.

/** One stored file: its storage key, size and Content-Type (URLs are derived from keys when read). */
export interface StoredFile {
  key: string;
  bytes: number;
  content_type: string;
}

/** A model's three stored files: binary glTF, USDZ and poster. */
export type ModelFiles = Record<'glb' | 'usdz' | 'poster', StoredFile>;

/** The bodies of a model's three files, before they are stored. */
export interface ModelFileBodies {
  glb: Buffer;
  usdz: Buffer;
  poster: { image: Buffer; ext: string; mime: string };
}

/**
 * Stores a model's files under `models/<job id>/` (same keys on a replay, so it is idempotent), or under
 * `base` when given (an item's variant: `models/<job id>/variants/<variant id>`). A storage failure is an
 * operational error (retried), named after `stage`.
 *
 * @example
 * const files = await storeModelFiles(storage, 'variants', job.id, bodies, () => {}, `models/${job.id}/variants/var_a3oak`);
 * files.glb.key // 'models/<job id>/variants/var_a3oak/model.glb'
 */
export async function storeModelFiles(
  storage: StoragePort,
  stage: string,
  jobId: string,
  b: ModelFileBodies,
  progress: (f: number) => void,
  base = `models/${jobId}`,
): Promise<ModelFiles> {
  const items: [keyof ModelFiles, string, Buffer, string][] = [
    ['glb', `${base}/model.glb`, b.glb, CONTENT_TYPES.glb],
    ['usdz', `${base}/model.usdz`, b.usdz, CONTENT_TYPES.usdz],
    ['poster', `${base}/poster.${b.poster.ext}`, b.poster.image, b.poster.mime],
  ];
  // Written side by side: the writes and their hashing overlap instead of queueing one after another.
  let done = 0;
  const stored = await Promise.all(
    items.map(async ([name, key, body, type]) => {
      try {
        await storage.put(key, body, type);
      } catch (e) {
        throw new OperationalError('storage_unavailable', `${stage}: could not store ${name}: ${(e as Error).message}`);
      }
      progress(++done / items.length);
      return [name, { key, bytes: body.length, content_type: type }] as const;
    }),
  );
  return Object.fromEntries(stored) as ModelFiles;
}
