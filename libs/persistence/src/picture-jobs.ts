import type { EntityManager } from 'typeorm';

/** A queued `v2.picture` job as a showcase writes it: a picture, a rebuild, a variant build or a gallery wall. */
export interface NewPictureJob {
  id: string;
  /** Its embed id (`emb_…`); null for a job with no embed page of its own (a variant build). */
  publicId: string | null;
  pipeline: string;
  ownerId: string;
  input: Record<string, unknown>;
}

/**
 * Inserts a queued `v2.picture` job inside the caller's transaction (with the item, wall or charge it belongs
 * to). `v2.picture` jobs are refunded in full when they fail (libs/runtime RefundOnFailure).
 */
export async function insertPictureJob(m: Pick<EntityManager, 'query'>, job: NewPictureJob, requestId: string | null): Promise<void> {
  await m.query(
    `INSERT INTO "jobs" ("id", "public_id", "kind", "pipeline", "owner_id", "input", "request_id") VALUES ($1, $2, 'v2.picture', $3, $4, $5, $6)`,
    [job.id, job.publicId, job.pipeline, job.ownerId, JSON.stringify(job.input), requestId],
  );
}
