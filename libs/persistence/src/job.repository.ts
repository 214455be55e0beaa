import type { DataSource, Repository } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import type { JobErrorInfo, JobPatch, JobStatus, JobStorePort, RunnableJob } from '@app/pipeline';
import { AccountRepository } from './account.repository';
import { randomId } from './ids';
import { JobEntity } from './job.entity';
import type { RepositoryHooks } from './repository-hooks';

export interface NewJob {
  kind: string;
  pipeline: string;
  ownerId: string | null;
  input: Record<string, unknown>;
  /** `api` for v1, `v2` for v2. */
  idPrefix: 'api' | 'v2';
  /** Give the job public embed pages (an unguessable `emb_…` id). */
  withPublicPage?: boolean;
  /** The API key (api_keys.id) that asks for it, if any: a widget key reads only the jobs it created. */
  createdByKey?: string | null;
}

const FINAL = ['completed', 'failed'];

/** Unguessable job id: prefix + 24 base32 characters (120 bits). */
export function newJobId(prefix: 'api' | 'v2' | 'emb'): string {
  return randomId(prefix);
}

/** Every database side effect for jobs. */
export class JobRepository implements JobStorePort {
  private readonly repo: Repository<JobEntity>;

  constructor(
    private readonly ds: DataSource,
    private readonly hooks: RepositoryHooks = {},
  ) {
    this.repo = ds.getRepository(JobEntity);
  }

  async create(job: NewJob): Promise<JobEntity> {
    // insert, not save: save would first SELECT the (new) id and wrap the INSERT in its own transaction.
    // The INSERT returns the database defaults (created_at, updated_at) into the entity.
    const entity = this.entity(job);
    await this.repo.insert(entity as QueryDeepPartialEntity<JobEntity>);
    return entity;
  }

  /**
   * Creates a job and charges its price lines in ONE transaction: when the balance does not cover the
   * total, {@link InsufficientCreditsError} is thrown and neither the job nor a charge exists.
   * Each line is charged under its own purpose, so each can be refunded alone.
   */
  async createCharged(
    job: NewJob,
    charge: { userId: string; lines: { cents: number; purpose: string; operation: string }[] } | null,
  ): Promise<{ job: JobEntity; chargedCents: number }> {
    const created = await this.ds.transaction(async (m) => {
      const saved = this.entity(job);
      await m.getRepository(JobEntity).insert(saved as QueryDeepPartialEntity<JobEntity>);
      const lines = (charge?.lines ?? []).filter((l) => l.cents > 0);
      if (charge && lines.length)
        await AccountRepository.debitAll(
          m,
          charge.userId,
          lines.map((l) => ({ ...l, jobId: saved.id })),
        );
      return { job: saved, chargedCents: lines.reduce((t, l) => t + l.cents, 0) };
    });
    if (created.chargedCents > 0) this.hooks.charged?.(created.chargedCents);
    return created;
  }

  private entity(job: NewJob): JobEntity {
    return this.repo.create({
      id: newJobId(job.idPrefix),
      publicId: job.withPublicPage ? newJobId('emb') : null,
      kind: job.kind,
      pipeline: job.pipeline,
      ownerId: job.ownerId,
      input: job.input,
      status: 'queued',
      progress: 0,
      stageProgress: {},
      checkpoints: {},
      result: null,
      error: null,
      attempts: 0,
      startedAt: null,
      finishedAt: null,
      requestId: this.hooks.requestId?.() ?? null,
      createdByKey: job.createdByKey ?? null,
    });
  }

  /**
   * Creates a job with a fixed id unless it exists (a replayed listener creates nothing twice).
   * Returns true when this call created it.
   */
  async createOnce(id: string, job: Omit<NewJob, 'idPrefix' | 'withPublicPage' | 'createdByKey'>): Promise<boolean> {
    const rows: unknown[] = await this.ds.query(
      `INSERT INTO "jobs" ("id", "kind", "pipeline", "owner_id", "input", "request_id") VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT ("id") DO NOTHING RETURNING "id"`,
      [id, job.kind, job.pipeline, job.ownerId, JSON.stringify(job.input), this.hooks.requestId?.() ?? null],
    );
    return rows.length > 0;
  }

  findByPublicId(publicId: string): Promise<JobEntity | null> {
    return this.repo.findOneBy({ publicId });
  }

  /**
   * One raw SELECT with the entity's columns aliased to its property names: the status routes call this on
   * every poll, and TypeORM's query builder and hydration cost more than the query itself (read-path bench).
   */
  async find(id: string): Promise<JobEntity | null> {
    const rows = await this.readRows(`SELECT ${this.selectList()} FROM "jobs" WHERE "id" = $1`, [id]);
    return rows[0] ? Object.assign(new JobEntity(), rows[0]) : null;
  }

  /**
   * The inputs of these jobs in one query (a wall's pictures: one read for 12, where `find` each would be 12; in the
   * embedded mode every query runs on the API's event loop). Jobs that do not exist are missing from the map.
   */
  async inputs(ids: readonly string[]): Promise<Map<string, Record<string, unknown>>> {
    const unique = [...new Set(ids)];
    if (!unique.length) return new Map();
    const rows = await this.readRows(
      `SELECT "id", "input" FROM "jobs" WHERE "id" IN (${unique.map((_, i) => `$${i + 1}`).join(', ')})`,
      unique,
    );
    return new Map(rows.map((r) => [r.id as string, (r.input as Record<string, unknown> | null) ?? {}]));
  }

  /**
   * A read straight on the driver's connection pool (pg's Pool, or the PGlite adapter's). The status
   * routes' one query is the API's hottest path, and TypeORM's query runner (a runner object, pool
   * checkout and release, query events) cost more than the query's own client work there.
   */
  private async readRows(sql: string, params: unknown[]): Promise<Record<string, unknown>[]> {
    const pool = (
      this.ds.driver as unknown as { master: { query(sql: string, params: unknown[]): Promise<{ rows: Record<string, unknown>[] }> } }
    ).master;
    return (await pool.query(sql, params)).rows;
  }

  private selectListCache?: string;

  private selectList(): string {
    return (this.selectListCache ??= this.ds
      .getMetadata(JobEntity)
      .columns.map((c) => `"${c.databaseName}" AS "${c.propertyName}"`)
      .join(', '));
  }

  /** A job as its owner sees it; null for anyone else (so the API answers 404, not 403). */
  async findForOwner(id: string, ownerId: string | null): Promise<JobEntity | null> {
    const job = await this.find(id);
    if (!job || job.ownerId !== ownerId) return null;
    return job;
  }

  async findRunnable(id: string): Promise<RunnableJob | null> {
    const j = await this.find(id);
    if (!j) return null;
    return {
      id: j.id,
      kind: j.kind,
      pipeline: j.pipeline,
      status: j.status,
      ownerId: j.ownerId,
      input: j.input,
      attempts: j.attempts,
      checkpoints: j.checkpoints ?? {},
      cancelRequested: j.cancelRequestedAt !== null && j.cancelRequestedAt !== undefined,
      ...(j.requestId ? { requestId: j.requestId } : {}),
    };
  }

  async isCancelRequested(id: string): Promise<boolean> {
    const rows: { requested: boolean }[] = await this.ds.query(
      `SELECT "cancel_requested_at" IS NOT NULL AS "requested" FROM "jobs" WHERE "id" = $1`,
      [id],
    );
    return rows[0]?.requested === true;
  }

  /**
   * Cancels a job at its owner's request. A queued job fails at once with `error` (`failed`: the caller
   * notifies the job listeners, as the runner would); a running one is only marked, and the worker
   * running it stops at its next check (`requested`); a final job is left alone (`final`).
   */
  async requestCancel(id: string, error: JobErrorInfo): Promise<'failed' | 'requested' | 'final' | 'missing'> {
    const now = new Date();
    const failed = await this.repo
      .createQueryBuilder()
      .update(JobEntity)
      .set({ status: 'failed', error, finishedAt: now, cancelRequestedAt: now } as never)
      .where('id = :id', { id })
      .andWhere('status = :queued', { queued: 'queued' })
      .execute();
    if ((failed.affected ?? 0) > 0) return 'failed';
    // Running (or put back to queued for a retry since: the runner fails it at its next start).
    const marked = await this.repo
      .createQueryBuilder()
      .update(JobEntity)
      .set({ cancelRequestedAt: () => 'COALESCE("cancel_requested_at", now())' } as never)
      .where('id = :id', { id })
      .andWhere('status NOT IN (:...final)', { final: FINAL })
      .execute();
    if ((marked.affected ?? 0) > 0) return 'requested';
    return (await this.find(id)) ? 'final' : 'missing';
  }

  async update(id: string, patch: JobPatch): Promise<boolean> {
    const res = await this.repo
      .createQueryBuilder()
      .update(JobEntity)
      .set(patch as never)
      .where('id = :id', { id })
      .andWhere('status NOT IN (:...final)', { final: FINAL })
      .execute();
    return (res.affected ?? 0) > 0;
  }

  /** Sets one checkpoint key (null removes it), atomically next to the others; not on final jobs. */
  async saveCheckpoint(id: string, key: string, value: unknown): Promise<void> {
    const sql =
      value === null
        ? `UPDATE "jobs" SET "checkpoints" = "checkpoints" - $2 WHERE "id" = $1 AND "status" NOT IN ('completed', 'failed')`
        : `UPDATE "jobs" SET "checkpoints" = jsonb_set("checkpoints", ARRAY[$2::text], $3::jsonb) WHERE "id" = $1 AND "status" NOT IN ('completed', 'failed')`;
    await this.ds.query(sql, value === null ? [id, key] : [id, key, JSON.stringify(value)]);
  }

  /** Jobs not in a final state, oldest first: what a restarted worker must pick up again. */
  async listUnfinishedIds(limit = 10_000): Promise<string[]> {
    return (await this.listUnfinished(limit)).map((r) => r.jobId);
  }

  /**
   * Unfinished jobs, oldest first, each with its fair-share priority: its position among its owner's
   * unfinished jobs (callbacks, which are quick and owed to a finished job, always 1), and its owner as
   * the queue group (callbacks have none: they are not held to an account's share of the slots).
   */
  async listUnfinished(limit = 10_000): Promise<{ jobId: string; priority: number; group?: string }[]> {
    const rows: { id: string; priority: string; group: string | null }[] = await this.ds.query(
      `SELECT "id", CASE WHEN "kind" = 'callback' THEN NULL ELSE "owner_id" END AS "group", CASE WHEN "kind" = 'callback' THEN 1
              ELSE ROW_NUMBER() OVER (PARTITION BY "owner_id", "kind" = 'callback' ORDER BY "created_at", "id") END AS "priority"
       FROM "jobs" WHERE "status" NOT IN ('completed', 'failed') ORDER BY "created_at", "id" LIMIT $1`,
      [limit],
    );
    return rows.map((r) => ({ jobId: r.id, priority: Number(r.priority), ...(r.group ? { group: r.group } : {}) }));
  }

  /** How many of an owner's jobs are queued or running (callback deliveries not counted). */
  async countUnfinished(ownerId: string | null): Promise<number> {
    const rows: { n: string }[] = await this.ds.query(
      `SELECT COUNT(*) AS "n" FROM "jobs" WHERE "owner_id" = $1 AND "status" NOT IN ('completed', 'failed') AND "kind" <> 'callback'`,
      [ownerId],
    );
    return Number(rows[0]?.n ?? 0);
  }

  /** Jobs stored as `queued`, not started by any worker (callback deliveries included): the backlog gauge. */
  async countQueued(): Promise<number> {
    const rows: { n: string }[] = await this.ds.query(`SELECT COUNT(*) AS "n" FROM "jobs" WHERE "status" = 'queued'`);
    return Number(rows[0]?.n ?? 0);
  }

  /** When the longest-waiting queued job was created (null when none waits): the queue-age gauge. */
  async oldestQueuedAt(): Promise<Date | null> {
    const rows: { at: Date | string | null }[] = await this.ds.query(
      `SELECT min("created_at") AS "at" FROM "jobs" WHERE "status" = 'queued'`,
    );
    const at = rows[0]?.at;
    return at ? new Date(at) : null;
  }

  /** Jobs for the operators' list, newest first; `limit + 1` rows tell the caller whether there are more. */
  async listForAdmin(filter: { status?: JobStatus; ownerId?: string; since?: Date; limit: number }): Promise<JobEntity[]> {
    const q = this.repo.createQueryBuilder('j').orderBy('j.createdAt', 'DESC').addOrderBy('j.id', 'DESC').limit(filter.limit);
    if (filter.status) q.andWhere('j.status = :status', { status: filter.status });
    if (filter.ownerId) q.andWhere('j.ownerId = :ownerId', { ownerId: filter.ownerId });
    if (filter.since) q.andWhere('j.createdAt >= :since', { since: filter.since });
    return q.getMany();
  }

  /**
   * An owner's jobs (callback deliveries left out), newest first, keyset-paginated: `after` is the
   * `position` of the last job of the previous page. A position holds the creation time in microseconds
   * (what Postgres keeps; a JS Date would lose them and skip or repeat jobs created in the same ms) and
   * the id. `limit + 1` rows tell the caller whether there are more.
   */
  async listForOwner(
    ownerId: string,
    filter: { status?: string; kinds?: readonly string[]; after?: { createdUs: string; id: string }; limit: number },
  ): Promise<{ job: JobEntity; position: { createdUs: string; id: string } }[]> {
    const params: unknown[] = [ownerId];
    const where = [`"owner_id" = $1`, `"kind" <> 'callback'`];
    if (filter.status) where.push(`"status" = $${params.push(filter.status)}`);
    if (filter.kinds?.length) where.push(`"kind" IN (${filter.kinds.map((k) => `$${params.push(k)}`).join(', ')})`);
    if (filter.after) {
      const at = `$${params.push(filter.after.createdUs)}`;
      where.push(
        `("created_at", "id") < (timestamptz 'epoch' + ${at}::bigint * interval '1 microsecond', $${params.push(filter.after.id)})`,
      );
    }
    const rows: Record<string, unknown>[] = await this.ds.query(
      `SELECT ${this.selectList()}, (extract(epoch from "created_at") * 1000000)::bigint::text AS "__created_us" FROM "jobs"
       WHERE ${where.join(' AND ')} ORDER BY "created_at" DESC, "id" DESC LIMIT $${params.push(filter.limit)}`,
      params,
    );
    return rows.map(({ __created_us, ...r }) => ({
      job: Object.assign(new JobEntity(), r),
      position: { createdUs: String(__created_us), id: String(r.id) },
    }));
  }

  /**
   * Puts a failed job back to `queued` for another run, as new: error, result, progress, attempts and
   * the cancel mark cleared (a cancel mark left would stop it at once); checkpoints kept, so a stage
   * resumes what it can. False when the job is not failed (only a failed job can be retried).
   */
  async requeueFailed(id: string): Promise<boolean> {
    const res = await this.repo
      .createQueryBuilder()
      .update(JobEntity)
      .set({
        status: 'queued',
        error: null,
        result: null,
        progress: 0,
        stageProgress: {},
        stageTimings: {},
        attempts: 0,
        startedAt: null,
        finishedAt: null,
        cancelRequestedAt: null,
      } as never)
      .where('id = :id', { id })
      .andWhere('status = :failed', { failed: 'failed' })
      .execute();
    return (res.affected ?? 0) > 0;
  }

  /** How many jobs are in each state (states without jobs left out). */
  async countByStatus(): Promise<Record<string, number>> {
    const rows: { status: string; n: string }[] = await this.ds.query(`SELECT "status", COUNT(*) AS "n" FROM "jobs" GROUP BY "status"`);
    return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
  }

  /** The longest-waiting queued job, if any. */
  async oldestQueued(): Promise<{ id: string; createdAt: Date } | null> {
    const rows: { id: string; created_at: Date | string }[] = await this.ds.query(
      `SELECT "id", "created_at" FROM "jobs" WHERE "status" = 'queued' ORDER BY "created_at", "id" LIMIT 1`,
    );
    return rows[0] ? { id: rows[0].id, createdAt: new Date(rows[0].created_at) } : null;
  }

  async ping(): Promise<void> {
    await this.ds.query('SELECT 1');
  }
}
