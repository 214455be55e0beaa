import { randomBytes } from 'node:crypto';
import type { DataSource, Repository } from 'typeorm';
import { WebhookDeliveryEntity, WebhookSecretEntity } from './webhook.entity';

export type NewDelivery = Omit<WebhookDeliveryEntity, 'id' | 'createdAt'>;

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
    await this.ds.query(`INSERT INTO "webhook_secrets" ("owner_id", "secret") VALUES ($1, $2) ON CONFLICT ("owner_id") DO NOTHING`, [ownerId, secret]);
    return (await this.secrets.findOneByOrFail({ ownerId })).secret;
  }

  async record(d: NewDelivery): Promise<void> {
    await this.deliveries.insert(d);
  }

  listForJob(jobId: string): Promise<WebhookDeliveryEntity[]> {
    return this.deliveries.find({ where: { jobId }, order: { id: 'ASC' } });
  }
}
