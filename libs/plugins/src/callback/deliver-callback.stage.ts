import { OperationalError, UserError, type StageProvider } from '@app/pipeline';
import type { CallbackJobInput } from '../job-inputs/callback-job-input';
import { inputOf } from '../job-inputs/job-input-fields';
import { type CallbackPort, webhookId } from './callback.port';
import { postCallback } from './post-callback';
import { signWebhook } from './standard-webhooks';

export interface CallbackStageOptions {
  timeoutMs: number;
  allowPrivateNetworks: boolean;
}

/**
 * Sends one signed callback attempt and records it. A failed attempt is an operational error, so the
 * queue retries it with backoff; a private address is a user error (no retry).
 */
export function createDeliverCallbackStage(
  port: CallbackPort,
  opts: CallbackStageOptions,
): StageProvider<{ delivered: true; status_code: number }> {
  return {
    id: 'deliver-callback',
    async run(ctx) {
      const { job_id: jobId, event } = inputOf<CallbackJobInput>(ctx.job);
      const msg = await port.prepare(jobId, event);
      const id = webhookId(jobId, event);
      const body = JSON.stringify(msg.payload);
      const headers = signWebhook(msg.secret, id, Math.floor(Date.now() / 1000), body);
      const res = await postCallback(msg.url, body, headers, opts);
      const succeeded = res.statusCode !== null && res.statusCode >= 200 && res.statusCode < 300;
      await port.record({
        jobId,
        webhookId: id,
        event,
        url: msg.url,
        attempt: ctx.job.attempt,
        statusCode: res.statusCode,
        error: res.error,
        durationMs: res.durationMs,
        succeeded,
      });
      if (succeeded) return { delivered: true, status_code: res.statusCode as number };
      if (res.blocked) throw new UserError('callback_url_blocked', `callback: ${res.error}`);
      throw new OperationalError('callback_failed', `callback: ${msg.url} failed: ${res.error}`);
    },
  };
}
