import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { JobErrorInfo, JobStatus, StageTimings } from '@app/pipeline';

/** A conversion job. The database is the source of truth; queue messages carry only the id. */
@Entity({ name: 'jobs' })
@Index('jobs_status_idx', ['status'])
@Index('jobs_owner_idx', ['ownerId', 'createdAt'])
export class JobEntity {
  /** `api_…` (v1) or `v2_…` (v2), unguessable. */
  @PrimaryColumn({ type: 'varchar', length: 64 })
  id!: string;

  /** Id of the public embed pages (`emb_…`), unguessable; null for jobs without pages. */
  @Column({ name: 'public_id', type: 'varchar', length: 40, nullable: true, unique: true })
  publicId!: string | null;

  /** What was asked for, e.g. `v1.convert`. */
  @Column({ type: 'varchar', length: 64 })
  kind!: string;

  /** Pipeline definition id that runs it. */
  @Column({ type: 'varchar', length: 128 })
  pipeline!: string;

  @Column({ type: 'varchar', length: 16, default: 'queued' })
  status!: JobStatus;

  /** 0..100 */
  @Column({ type: 'double precision', default: 0 })
  progress!: number;

  @Column({ name: 'stage_progress', type: 'jsonb', default: () => "'{}'::jsonb" })
  stageProgress!: Record<string, number>;

  /** Each stage of the last run: when it started (ISO) and, once done, how long it took. */
  @Column({ name: 'stage_timings', type: 'jsonb', default: () => "'{}'::jsonb" })
  stageTimings!: StageTimings;

  @Column({ type: 'jsonb' })
  input!: Record<string, unknown>;

  /** Stage checkpoints by key (e.g. a motion model's operation handle), kept across retries and restarts. */
  @Column({ type: 'jsonb', default: () => "'{}'::jsonb" })
  checkpoints!: Record<string, unknown>;

  @Column({ type: 'jsonb', nullable: true })
  result!: Record<string, unknown> | null;

  @Column({ type: 'jsonb', nullable: true })
  error!: JobErrorInfo | null;

  @Column({ name: 'owner_id', type: 'varchar', length: 64, nullable: true })
  ownerId!: string | null;

  @Column({ type: 'int', default: 0 })
  attempts!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @Column({ name: 'started_at', type: 'timestamptz', nullable: true })
  startedAt!: Date | null;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt!: Date | null;

  /** When a client asked to cancel the job (POST …/cancel); the worker running it stops within 2 s. */
  @Column({ name: 'cancel_requested_at', type: 'timestamptz', nullable: true })
  cancelRequestedAt!: Date | null;

  /** The API key (api_keys.id) that created the job; null for the owner key, console sessions and jobs the service made. */
  @Column({ name: 'created_by_key', type: 'varchar', length: 64, nullable: true })
  createdByKey!: string | null;

  /** The API request that created the job (X-Request-Id), for matching worker log lines to it. */
  @Column({ name: 'request_id', type: 'varchar', length: 128, nullable: true })
  requestId!: string | null;
}
