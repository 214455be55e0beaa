import { Injectable } from '@nestjs/common';
import { WebhookRepository } from '@app/persistence';
import { ApiError } from '../http/api-error';
import { callbackUrlView } from '../http/request-url';

/** Callback delivery attempts as the API shows them: the URL without its query string or fragment. */
@Injectable()
export class WebhookDeliveriesService {
  constructor(private readonly webhooks: WebhookRepository) {}

  async recent(userId: string, q: { limit?: string }) {
    const limit = q.limit === undefined ? 50 : Number(q.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 200) throw ApiError.invalid('limit', 'limit: a whole number from 1 to 200');
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
