import type { TOKENS } from '@image-ar/plugin-sdk';

/** What the host provides to the callback stage (implemented in the runtime over the database). */
export interface CallbackPort {
  /** The message for a finished job: where to send it, what, and with which secret. */
  prepare(jobId: string, event: string): Promise<{ url: string; payload: Record<string, unknown>; secret: string }>;
  record(attempt: {
    jobId: string;
    webhookId: string;
    event: string;
    url: string;
    attempt: number;
    statusCode: number | null;
    error: string | null;
    durationMs: number;
    succeeded: boolean;
  }): Promise<void>;
}

export const CALLBACK_PORT: typeof TOKENS.callbacks = 'app.callbacks';

/** Id of the callback job for a conversion job and event; fixed, so scheduling twice creates one. */
export function callbackJobId(jobId: string, event: string): string {
  return `cb_${jobId}_${event}`;
}

/** `webhook-id`: one per job and event, the same on every retry, so receivers can dedupe. */
export function webhookId(jobId: string, event: string): string {
  return `msg_${jobId}_${event}`;
}
