import { PipelineError, type StageJob } from '@app/pipeline';
import { z } from '@app/schema';
import { parseDimensionRequest } from '../dimensions/dimensions';
import { FIT_MODES, parseFit } from '../fit/fit';
import { FINISHES, FRAME_STYLES, parsePresentation, PLACEMENTS } from '../presentation/presentation';

/*
 * The fields of the job inputs, declared once for the API that writes them and the worker that reads them.
 *
 * A job input keeps the picture's fields as the client sent them, once the request schema accepted them: the
 * pipeline resolves them (parsePresentation, parseDimensionRequest, parseFit) with the defaults of the version
 * that runs the job, and an item edit merges over what was asked. So these schemas check a stored input
 * without changing it (no trimming, no defaults, nothing converted): what they return is the stored JSON,
 * typed. They accept every value the stages accept, since a job stored by an earlier version must still run,
 * and keep the fields they do not name (such a job may carry some). The pipeline's own checks run first, so
 * a bad field gets the message (and the code) its stage would have given; then the shape types the input.
 */

/** A field's error: `required` when it is missing, else `message`. */
export const expected =
  (message: string) =>
  (iss: { input?: unknown }): string =>
    iss.input === undefined ? 'required' : message;
export const str = () => z.string({ error: expected('must be a string') });
export const nonEmpty = () => str().min(1, { error: () => 'must not be empty' });
export const num = () => z.number({ error: expected('must be a number') });
export const int = () => z.number({ error: expected('must be a whole number') }).int({ error: () => 'must be a whole number' });
export const bool = () => z.boolean({ error: expected('must be true or false') });
export const oneOf = <T extends string>(values: readonly T[]) =>
  z.enum(values as unknown as [T, ...T[]], { error: expected(`must be one of ${values.join(', ')}`) });
export const record = () => z.record(z.string(), z.unknown(), { error: expected('must be an object') });

/** A picture's size as a job input holds it (inches; `aspect_ratio` "W:H"; `fit` for an explicit size). */
export const sizeInputShape = {
  width_inches: num().nullish(),
  height_inches: num().nullish(),
  aspect_ratio: str().nullish(),
  fit: oneOf(FIT_MODES).nullish(),
};

/** A frame as sent: a style name, or an object (its depth may come from the item's `depth_inches`). */
const frameInput = z.union(
  [
    oneOf(FRAME_STYLES),
    z.looseObject({
      style: oneOf(FRAME_STYLES).nullish(),
      width_inches: num().nullish(),
      depth_inches: num().nullish(),
      color: str().nullish(),
      edge: str().nullish(),
    }),
  ],
  { error: expected(`must be one of ${FRAME_STYLES.join(', ')} or a frame object`) },
);

/** The presentation fields a showcase takes as defaults (placement, scaling, finish, frame, mat), as sent. */
export const lookInputShape = {
  placement: oneOf(PLACEMENTS).nullish(),
  allow_scaling: bool().nullish(),
  finish: oneOf(FINISHES).nullish(),
  frame: frameInput.nullish(),
  mat: z
    .looseObject({ width_inches: num(), color: str().nullish() }, { error: expected('must be an object {width_inches, color}') })
    .nullish(),
};

/** Every presentation field of a picture, as sent: the look and the AR banner. */
export const presentationInputShape = {
  ...lookInputShape,
  title: str().nullish(),
  subtitle: str().nullish(),
  link_url: str().nullish(),
  call_to_action: str().nullish(),
  price: str().nullish(),
};

/** What a picture's files are built from: its size and its presentation (banner included), as sent. */
export const pictureFieldsShape = { ...sizeInputShape, ...presentationInputShape };
/** The fields of `S` with the others kept: what a loose object of that shape parses to. */
type Loose<S extends z.core.$ZodLooseShape> = z.output<z.ZodObject<S, z.core.$loose>>;
/** The size and presentation fields of a picture job input (picture, rebuild, animated AR), typed. */
export type PictureFields = Loose<typeof pictureFieldsShape>;

/** One variant a job builds: its id and the size and look it is built with (VARIANT_FIELDS). */
export const VariantSpecInput = z.looseObject(
  { id: str(), ...sizeInputShape, ...lookInputShape },
  { error: expected('must be an object') },
);
export type VariantSpecInput = z.output<typeof VariantSpecInput>;

/** `upload_key` / `image_url`: where the fetch stage reads the picture (a stored upload or model, or a URL). */
export const pictureSourceShape = { image_url: nonEmpty().optional(), upload_key: nonEmpty().optional() };
/** The source fields of a picture job input (picture, rebuild, variant build), typed. */
export type PictureSource = Loose<typeof pictureSourceShape>;

type Check = (v: Record<string, unknown>, ctx: z.RefinementCtx) => void;

/**
 * A job input's schema: the `checks` on any object (see above), then `shape`, which types it and keeps the
 * fields it does not name.
 */
export function defineJobInput<S extends z.core.$ZodLooseShape>(shape: S, checks: readonly Check[] = []) {
  return z
    .looseObject({}, { error: () => 'must be an object' })
    .superRefine((v, ctx) => checks.forEach((check) => check(v, ctx)))
    .pipe(z.looseObject(shape));
}

/** `a.b[2].c` as a zod path, so an issue names the parameter a stage's UserError named. */
function pathOf(param: string | undefined): PropertyKey[] {
  if (!param) return [];
  return [...param.matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map((m) => (m[2] !== undefined ? Number(m[2]) : m[1]));
}

/**
 * Runs one of the pipeline's own checks (a parse function throwing a UserError) as a refinement: an input
 * the schema accepts is one the stages accept, and its error is the one the stage would have given. A
 * message led by its parameter is told without it, so `parseInput`'s prefix names it as a request's would
 * (`items[2].frame.style: …`).
 */
export function refineWith(ctx: z.RefinementCtx, check: () => unknown): void {
  try {
    check();
  } catch (e) {
    if (!(e instanceof PipelineError) || e.kind !== 'user') throw e;
    const lead = e.param ? `${e.param}: ` : undefined;
    const named = lead !== undefined && e.message.startsWith(lead);
    ctx.addIssue({
      code: 'custom',
      path: pathOf(e.param),
      message: named ? e.message.slice(lead.length) : e.message,
      params: { code: e.code, verbatim: !named },
    });
  }
}

/**
 * The presentation fields of a request as a job input keeps them (as sent), checked as parsePresentation
 * resolves them (a mat needs a frame...). The API's requests and every picture job input hold them.
 *
 * @example
 * PresentationInput.parse({ frame: 'classic', mat: { width_inches: 2 }, title: ' Dunes ' }) // the same object, typed
 */
export const PresentationInput = defineJobInput(presentationInputShape, [(v, ctx) => refineWith(ctx, () => parsePresentation(v))]);
export type PresentationInput = z.output<typeof PresentationInput>;

/** The size, fit and presentation of a picture, checked as the scene and normalise stages resolve them. */
export function checkPictureFields(v: Record<string, unknown>, ctx: z.RefinementCtx): void {
  refineWith(ctx, () => parseDimensionRequest(v));
  refineWith(ctx, () => parseFit(v));
  refineWith(ctx, () => parsePresentation(v));
}

/** Exactly one of `fields` is given (the job's source). */
export const exactlyOne =
  (fields: readonly string[]) =>
  (v: Record<string, unknown>, ctx: z.RefinementCtx): void => {
    const given = fields.filter((k) => v[k] != null);
    if (given.length !== 1)
      ctx.addIssue({
        code: 'custom',
        path: [given[1] ?? fields[0]],
        message: given.length ? `only one of ${fields.join(', ')} (got ${given.join(' and ')})` : `required: one of ${fields.join(', ')}`,
        params: { code: given.length ? 'parameter_conflict' : 'parameter_missing' },
      });
  };

/**
 * A stage's view of its job's input: the worker parsed the stored JSON once, before the first stage, with the
 * schema of the job's kind (libs/runtime `parseJobInput`), and handed the result down as `job.input`; a stage
 * only types it. `T`: the job input type, or the part of one that the stage reads.
 */
export const inputOf = <T extends object>(job: Pick<StageJob, 'input'>): Readonly<T> => job.input as Readonly<T>;
