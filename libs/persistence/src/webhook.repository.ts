import { randomBytes } from 'node:crypto';
import type { DataSource, Repository } from 'typeorm';
import { WebhookDeliveryEntity, WebhookSecretEntity } from './webhook.entity';

export type NewDelivery = Omit<WebhookDeliveryEntity, 'id' | 'createdAt'>;

export interface RecentDelivery {
  id: number;
  jobId: string;
  webhookId: string;
  event: string;
  url: string;
  attempt: number;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  succeeded: boolean;
  createdAt: Date;
}

const toRecentDelivery = (r: Record<string, any>): RecentDelivery => ({
  id: Number(r.id),
  jobId: r.job_id,
  webhookId: r.webhook_id,
  event: r.event,
  url: r.url,
  attempt: Number(r.attempt),
  statusCode: r.status_code === null ? null : Number(r.status_code),
  error: r.error,
  durationMs: Number(r.duration_ms),
  succeeded: r.succeeded,
  createdAt: r.created_at,
});

/** Callback secrets and delivery attempts. */
export class WebhookRepository {
  private readonly secrets: Repository<WebhookSecretEntity>;
  private readonly deliveries: Repository<WebhookDeliveryEntity>;

  constructor(private readonly ds: DataSource) {
    this.secrets = ds.getRepository(WebhookSecretEntity);
    this.deliveries = ds.getRepository(WebhookDeliveryEntity);
  }

  /** The owner's signing secret, created on first use (race-safe: the first insert wins). */
  async secretFor(ownerId: string): Promise<string> {
    const existing = await this.secrets.findOneBy({ ownerId });
    if (existing) return existing.secret;
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    await this.ds.query(`INSERT INTO "webhook_secrets" ("owner_id", "secret") VALUES ($1, $2) ON CONFLICT ("owner_id") DO NOTHING`, [
      ownerId,
      secret,
    ]);
    return (await this.secrets.findOneByOrFail({ ownerId })).secret;
  }

  async record(d: NewDelivery): Promise<void> {
    await this.deliveries.insert(d);
  }

  /** The latest delivery attempts of an owner's callbacks, newest first. */
  async recentForOwner(ownerId: string, limit: number): Promise<RecentDelivery[]> {
    const rows = await this.ds.query(
      `SELECT d."id", d."job_id", d."webhook_id", d."event", d."url", d."attempt", d."status_code", d."error", d."duration_ms", d."succeeded", d."created_at"
         FROM "webhook_deliveries" d JOIN "jobs" j ON j."id" = d."job_id" WHERE j."owner_id" = $1 ORDER BY d."id" DESC LIMIT $2`,
      [ownerId, limit],
    );
    return rows.map(toRecentDelivery);
  }

  listForJob(jobId: string): Promise<WebhookDeliveryEntity[]> {
    return this.deliveries.find({ where: { jobId }, order: { id: 'ASC' } });
  }
}
