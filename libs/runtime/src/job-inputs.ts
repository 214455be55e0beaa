import { VARIANT_BUILD_INPUT } from '@app/persistence';
import { type RunnableJob, UserError } from '@app/pipeline';
import {
  AnimatedArJobInput,
  CallbackJobInput,
  PictureJobInput,
  REBUILD_INPUT,
  RebuildJobInput,
  VariantsJobInput,
  WallJobInput,
} from '@app/plugins';
import { parseInput, type z } from '@app/schema';

/** Error code of a job whose stored input the schema of its kind refuses (written by hand, or by a faulty version). */
export const INVALID_JOB_INPUT = 'invalid_job_input';

const given = (input: unknown, key: string): boolean =>
  typeof input === 'object' && input !== null && (input as Record<string, unknown>)[key] != null;

/**
 * The schema of a job's input, by its kind; a `v2.picture` job (a showcase's picture, an item's rebuild, a
 * variant build or a gallery wall, whichever pipeline an operator routes it to) by the key that says what it
 * builds, as the listeners and the job views tell them. Undefined for a kind this version does not create.
 */
export function jobInputSchema(job: Pick<RunnableJob, 'kind' | 'input'>): z.ZodType<Record<string, unknown>> | undefined {
  switch (job.kind) {
    case 'v1.convert':
      return PictureJobInput;
    case 'v2.animated-ar':
      return AnimatedArJobInput;
    case 'callback':
      return CallbackJobInput;
    case 'v2.picture':
      if (given(job.input, 'wall')) return WallJobInput;
      if (given(job.input, VARIANT_BUILD_INPUT)) return VariantsJobInput;
      if (given(job.input, REBUILD_INPUT)) return RebuildJobInput;
      return PictureJobInput;
    default:
      return undefined;
  }
}

/**
 * A job's stored input parsed once, before its first stage, with the schema of its kind (the worker hands it
 * to the runner as `RunnerDeps.parseInput`): the stages get the result as `job.input`, typed, and check
 * nothing again. A refused input is a UserError {@link INVALID_JOB_INPUT} naming the field (`job input:
 * variants[0].id: …`), so the job fails with that message at once, not retried (and is refunded). A kind
 * without a schema keeps its input as stored.
 *
 * @example
 * parseJobInput({ kind: 'v1.convert', input: { image_url: 'https://cdn.example/a.jpg', frame: 'thin' } }) // the input, typed
 * parseJobInput({ kind: 'v1.convert', input: { frame: 'thin' } }) // throws UserError 'job input: image_url: required: one of image_url, upload_key'
 */
export function parseJobInput(job: Pick<RunnableJob, 'kind' | 'input'>): Record<string, unknown> {
  const schema = jobInputSchema(job);
  if (!schema) return job.input;
  try {
    return parseInput(schema, job.input);
  } catch (e) {
    if (!(e instanceof UserError)) throw e;
    throw new UserError(INVALID_JOB_INPUT, `job input: ${e.message}`, e.param ? { param: e.param } : {});
  }
}
