import type { z } from '@app/schema';
import { defineJobInput, nonEmpty } from './job-input-fields';

/**
 * A callback delivery (the `callback` pipeline): the job whose final payload is POSTed to its callback_url
 * and the event (`completed` or `failed`), written by libs/runtime's callback listener.
 *
 * @example
 * CallbackJobInput.parse({ job_id: 'api_k3xq7a2mzp4r', event: 'completed' })
 */
export const CallbackJobInput = defineJobInput({ job_id: nonEmpty(), event: nonEmpty() });
export type CallbackJobInput = z.output<typeof CallbackJobInput>;
