import type { DataSource, EntityManager } from 'typeorm';
import { AccountRepository } from './account.repository';
import { newJobId } from './job.repository';
import { randomId } from './ids';
import { insertPictureJob } from './picture-jobs';
import type { RepositoryHooks } from './repository-hooks';
import { queryReturning } from './returning';

/** A saved gallery wall with the state of the job whose files serve it. */
export interface ShowcaseWallRow {
  id: number;
  /** `wall_…`: the id the API and the pages use. */
  publicId: string;
  showcaseId: number;
  name: string;
  /** The request as validated (items, arrangement, gap_inches, align, columns). */
  spec: Record<string, unknown>;
  /** Each picture's outer centre and size as arranged, and the outer size of the whole. */
  layout: Record<string, unknown>;
  jobId: string;
  status: string;
  progress: number;
  result: Record<string, unknown> | null;
  error: { code: string; message: string } | null;
  /** The job's public id: the wall's embed page. */
  embedId: string;
  createdAt: Date;
  updatedAt: Date;
}

/** What a new wall or a rebuild writes: the wall's fields and its build job. */
export interface WallBuild {
  name: string;
  spec: Record<string, unknown>;
  layout: Record<string, unknown>;
  /** The build job's input and pipeline (a `v2.picture` job: refunded when it fails). */
  input: Record<string, unknown>;
  pipeline: string;
}

/** A wall's public id as {@link randomId} makes it. */
const WALL_ID = /^wall_[a-z2-7]{24}$/;

const SELECT = `SELECT w.*, j."status", j."progress", j."result", j."error", j."public_id" AS "embed_id"
  FROM "showcase_walls" w JOIN "jobs" j ON j."id" = w."job_id"`;

function toWall(r: Record<string, any>): ShowcaseWallRow {
  return {
    id: Number(r.id),
    publicId: r.public_id,
    showcaseId: Number(r.showcase_id),
    name: r.name,
    spec: r.spec,
    layout: r.layout,
    jobId: r.job_id,
    status: r.status,
    progress: Number(r.progress ?? 0),
    result: r.result ?? null,
    error: r.error ?? null,
    embedId: r.embed_id,
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
  };
}

/**
 * Saved gallery walls (docs/gallery-walls.md). Creating one is one transaction: the charge (all or nothing,
 * a `showcase.wall` ledger line on the build job, so a failed build is refunded like a picture), the job and
 * the wall. A rebuild gives the wall a new job that takes over the old one's public (embed) id, so the
 * wall's embed URL stays; the old job is then the caller's to delete with its files.
 */
export class ShowcaseWallRepository {
  constructor(
    private readonly ds: DataSource,
    private readonly hooks: RepositoryHooks = {},
  ) {}

  /** Creates a wall and its queued build job, charging `cents` (0: free). */
  async create(
    showcase: { id: number; ownerId: string },
    build: WallBuild,
    cents: number,
  ): Promise<{ wall: ShowcaseWallRow; chargedCents: number }> {
    const jobId = newJobId('v2');
    const id = await this.ds.transaction(async (m) => {
      if (cents > 0)
        await AccountRepository.debitAll(m, showcase.ownerId, [{ cents, jobId, purpose: 'showcase.wall', operation: 'showcase.wall' }]);
      await this.insertJob(m, { id: jobId, publicId: newJobId('emb'), ownerId: showcase.ownerId }, build);
      const rows = await m.query(
        `INSERT INTO "showcase_walls" ("public_id", "showcase_id", "name", "spec", "layout", "job_id") VALUES ($1, $2, $3, $4, $5, $6) RETURNING "id"`,
        [randomId('wall'), showcase.id, build.name, JSON.stringify(build.spec), JSON.stringify(build.layout), jobId],
      );
      return Number(rows[0].id);
    });
    if (cents > 0) this.hooks.charged?.(cents);
    const wall = await this.byId(id);
    if (!wall) throw new Error(`walls: wall ${id} vanished after its creation`);
    return { wall, chargedCents: cents };
  }

  /** A wall's build job: a picture job (refunded when it fails). */
  private insertJob(m: Pick<EntityManager, 'query'>, job: { id: string; publicId: string; ownerId: string }, build: WallBuild) {
    return insertPictureJob(m, { ...job, pipeline: build.pipeline, input: build.input }, this.hooks.requestId?.() ?? null);
  }

  private async byId(id: number): Promise<ShowcaseWallRow | null> {
    const rows = await this.ds.query(`${SELECT} WHERE w."id" = $1`, [id]);
    return rows[0] ? toWall(rows[0]) : null;
  }

  /** A showcase's walls, newest first. */
  async list(showcaseId: number): Promise<ShowcaseWallRow[]> {
    const rows = await this.ds.query(`${SELECT} WHERE w."showcase_id" = $1 ORDER BY w."id" DESC`, [showcaseId]);
    return rows.map(toWall);
  }

  /** One wall of a showcase by its `wall_…` id (a path parameter: anything else is no wall). */
  async find(showcaseId: number, publicId: string): Promise<ShowcaseWallRow | null> {
    if (!WALL_ID.test(publicId)) return null;
    const rows = await this.ds.query(`${SELECT} WHERE w."showcase_id" = $1 AND w."public_id" = $2`, [showcaseId, publicId]);
    return rows[0] ? toWall(rows[0]) : null;
  }

  /** The jobs of a showcase's walls (deleted with the showcase). */
  async jobIds(showcaseId: number): Promise<string[]> {
    const rows: { job_id: string }[] = await this.ds.query(`SELECT "job_id" FROM "showcase_walls" WHERE "showcase_id" = $1`, [showcaseId]);
    return rows.map((r) => r.job_id);
  }

  /**
   * Records a visitor's wall built under `base` from these items, `bytes` stored, used now (a second record of
   * the same base, a rebuild, takes the new size and time). Nothing is recorded for a showcase deleted meanwhile.
   */
  async recordVisitorWall(showcaseId: number, base: string, itemIds: readonly number[], bytes = 0): Promise<void> {
    await this.ds.query(
      `INSERT INTO "visitor_walls" ("base", "showcase_id", "item_ids", "bytes") SELECT $1, $2, $3, $4 WHERE EXISTS (SELECT 1 FROM "showcases" WHERE "id" = $2)
       ON CONFLICT ("base") DO UPDATE SET "bytes" = EXCLUDED."bytes", "last_used_at" = now()`,
      [base, showcaseId, JSON.stringify(itemIds), bytes],
    );
  }

  /**
   * Marks a visitor's wall used at `now` (served from storage), unless it was marked within `withinMs`: the
   * age limit counts days, so a wall served a thousand times an hour costs one write, not a thousand.
   */
  async touchVisitorWall(base: string, now = new Date(), withinMs = 3_600_000): Promise<void> {
    await this.ds.query(`UPDATE "visitor_walls" SET "last_used_at" = $2 WHERE "base" = $1 AND "last_used_at" < $3`, [
      base,
      now,
      new Date(now.getTime() - withinMs),
    ]);
  }

  /**
   * The visitor walls of a showcase to evict so that its recorded bytes are at most `maxBytes`: the least
   * recently used first, never `keep` (the wall just built; alone over the cap it stays, the others go).
   */
  async visitorWallsPastCap(showcaseId: number, maxBytes: number, keep: string): Promise<string[]> {
    const rows: { base: string }[] = await this.ds.query(
      `SELECT "base" FROM (
         SELECT "base", SUM("bytes") OVER (ORDER BY ("base" = $3) DESC, "last_used_at" DESC, "base" DESC) AS "kept"
         FROM "visitor_walls" WHERE "showcase_id" = $1
       ) t WHERE "kept" > $2 AND "base" <> $3 ORDER BY "kept" DESC`,
      [showcaseId, maxBytes, keep],
    );
    return rows.map((r) => r.base);
  }

  /** A showcase's visitor walls: bytes recorded in all, and how many. */
  async visitorWallUsage(showcaseId: number): Promise<{ bytes: number; walls: number }> {
    const rows: { bytes: string | null; walls: string }[] = await this.ds.query(
      `SELECT SUM("bytes") AS "bytes", COUNT(*) AS "walls" FROM "visitor_walls" WHERE "showcase_id" = $1`,
      [showcaseId],
    );
    return { bytes: Number(rows[0]?.bytes ?? 0), walls: Number(rows[0]?.walls ?? 0) };
  }

  /** Renames a wall; null when it is gone. */
  async rename(id: number, name: string): Promise<ShowcaseWallRow | null> {
    const rows = await queryReturning(
      this.ds,
      `UPDATE "showcase_walls" SET "name" = $2, "updated_at" = now() WHERE "id" = $1 RETURNING "id"`,
      [id, name],
    );
    return rows[0] ? this.byId(id) : null;
  }

  /**
   * Gives the wall a new build (new spec, layout and a queued job) in one transaction, if it is still served
   * by `expectedJobId`; the new job takes the old one's public id (the embed URL stays), the old job gets a
   * fresh one. Returns the wall and the replaced job, or null when the wall changed or went meanwhile.
   */
  async rebuild(
    id: number,
    ownerId: string,
    expectedJobId: string,
    build: WallBuild,
  ): Promise<{ wall: ShowcaseWallRow; replacedJobId: string } | null> {
    const jobId = newJobId('v2');
    const done = await this.ds.transaction(async (m) => {
      const locked = await m.query(`SELECT "job_id" FROM "showcase_walls" WHERE "id" = $1 FOR UPDATE`, [id]);
      if (!locked[0] || locked[0].job_id !== expectedJobId) return false;
      const was: { public_id: string }[] = await m.query(`SELECT "public_id" FROM "jobs" WHERE "id" = $1 FOR UPDATE`, [expectedJobId]);
      if (!was[0]) return false;
      await m.query(`UPDATE "jobs" SET "public_id" = $2 WHERE "id" = $1`, [expectedJobId, newJobId('emb')]);
      await this.insertJob(m, { id: jobId, publicId: was[0].public_id, ownerId }, build);
      await m.query(
        `UPDATE "showcase_walls" SET "name" = $2, "spec" = $3, "layout" = $4, "job_id" = $5, "updated_at" = now() WHERE "id" = $1`,
        [id, build.name, JSON.stringify(build.spec), JSON.stringify(build.layout), jobId],
      );
      return true;
    });
    if (!done) return null;
    const wall = await this.byId(id);
    return wall ? { wall, replacedJobId: expectedJobId } : null;
  }
}
