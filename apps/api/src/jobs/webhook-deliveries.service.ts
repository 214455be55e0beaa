import { Injectable } from '@nestjs/common';
import { WebhookRepository } from '@app/persistence';
import { parseInput } from '@app/schema';
import { DeliveryListQuery } from './jobs.schema';
import { callbackUrlView } from '../http/request-url';

/** Callback delivery attempts as the API shows them: the URL without its query string or fragment. */
@Injectable()
export class WebhookDeliveriesService {
  constructor(private readonly webhooks: WebhookRepository) {}

  async recent(userId: string, query: unknown) {
    const { limit } = parseInput(DeliveryListQuery, query ?? {});
    const rows = await this.webhooks.recentForOwner(userId, limit);
    return {
      data: rows.map((d) => ({
        id: d.id,
        job_id: d.jobId,
        webhook_id: d.webhookId,
        event: d.event,
        url: callbackUrlView(d.url),
        attempt: d.attempt,
        status_code: d.statusCode,
        error: d.error,
        duration_ms: d.durationMs,
        succeeded: d.succeeded,
        created_at: new Date(d.createdAt).toISOString(),
        object: 'webhook_delivery' as const,
      })),
    };
  }
}
