import { Column, CreateDateColumn, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

/** Per-owner signing secret for callbacks (Standard Webhooks `whsec_…`). */
@Entity({ name: 'webhook_secrets' })
export class WebhookSecretEntity {
  @PrimaryColumn({ name: 'owner_id', type: 'varchar', length: 64 })
  ownerId!: string;

  @Column({ type: 'varchar', length: 128 })
  secret!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}

/** One attempt to deliver a callback. Kept so the client can see what happened. */
@Entity({ name: 'webhook_deliveries' })
export class WebhookDeliveryEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  /** The conversion job the callback is about. */
  @Column({ name: 'job_id', type: 'varchar', length: 64 })
  jobId!: string;

  /** `webhook-id` header: the same for every attempt of one event, so receivers can dedupe. */
  @Column({ name: 'webhook_id', type: 'varchar', length: 100 })
  webhookId!: string;

  @Column({ type: 'varchar', length: 32 })
  event!: string;

  @Column({ type: 'text' })
  url!: string;

  @Column({ type: 'int' })
  attempt!: number;

  @Column({ name: 'status_code', type: 'int', nullable: true })
  statusCode!: number | null;

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  @Column({ name: 'duration_ms', type: 'int' })
  durationMs!: number;

  @Column({ type: 'boolean' })
  succeeded!: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
