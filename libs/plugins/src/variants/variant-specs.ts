import { PipelineError, UserError } from '@app/pipeline';
import { type DimensionRequest, parseDimensionRequest } from '../dimensions/dimensions';
import { type FitMode, parseFit } from '../fit/fit';
import { parsePresentation, type Presentation, PRESENTATION_DEFAULT_FIELDS } from '../presentation/presentation';

/** The most variants one job builds (an item's sizes and frames). */
export const MAX_VARIANTS = 24;

/** A variant id: `var_` and 4 to 40 letters or digits. */
export const VARIANT_ID = /^var_[A-Za-z0-9]{4,40}$/;

/** The fields a variant spec takes: its id, the size fields, `fit`, and the presentation fields but the banner. */
export const VARIANT_FIELDS = ['id', 'width_inches', 'height_inches', 'aspect_ratio', 'fit', ...PRESENTATION_DEFAULT_FIELDS] as const;

/**
 * One variant of an item as a job input lists it: `{ id, width_inches, height_inches, fit?, frame?, mat?,
 * finish?, placement?, allow_scaling? }`, the size and presentation fields a picture job input takes (a
 * size left out, or `aspect_ratio`, resolves as on a picture job: 24 in on the shorter side). The spec
 * itself is the variant's "job input": nothing is inherited from the job's top-level fields.
 */
export interface VariantSpec {
  id: string;
  /** The spec as given: what {@link parseDimensionRequest}, {@link parseFit} and {@link parsePresentation} read. */
  input: Record<string, unknown>;
  size: DimensionRequest;
  fit: FitMode;
  presentation: Presentation;
}

/**
 * Whether a job builds an item's variants: its input has a `variants` key (an array, possibly empty). Such
 * a job keeps the whole picture in its texture and applies `fit: crop` through each model's uv instead.
 *
 * @example
 * isVariantsJob({ image_url: 'https://…', variants: [] }) // true
 * isVariantsJob({ image_url: 'https://…' })               // false
 */
export function isVariantsJob(input: Record<string, unknown>): boolean {
  return input.variants !== undefined && input.variants !== null;
}

const specError = (i: number, e: unknown): unknown => {
  if (!(e instanceof PipelineError) || e.kind !== 'user') return e;
  const at = `variants[${i}]`;
  const param = e.param ? `${at}.${e.param}` : at;
  const message = e.param && e.message.startsWith(`${e.param}:`) ? `${at}.${e.message}` : `${at}: ${e.message}`;
  return new UserError(e.code, `variants: ${message}`, { param });
};

const invalid = (param: string, message: string, code = 'parameter_invalid') =>
  new UserError(code, `variants: ${param}: ${message}`, { param });

/**
 * Validates the `variants` of a job input: an array of at most {@link MAX_VARIANTS} specs, each an object
 * with a unique id matching {@link VARIANT_ID} and the optional fields of {@link VARIANT_FIELDS} (width_inches
 * and height_inches as a pair, fit, frame, mat, finish, placement, allow_scaling: validated as on a picture
 * job); any other field is refused. A bad spec is a UserError prefixed
 * `variants: ` naming the field (`variants[2].frame.style`). A job without the key has none.
 *
 * @example
 * parseVariantSpecs({ variants: [{ id: 'var_a3unframed', width_inches: 11.69, height_inches: 16.54, fit: 'crop' }] })
 * // [{ id: 'var_a3unframed', size: { mode: 'explicit', width: 11.69, height: 16.54 }, fit: 'crop', presentation: {…}, input: {…} }]
 * parseVariantSpecs({ variants: [{ id: 'x' }] }) // throws UserError 'variants: variants[0].id: must match ^var_[A-Za-z0-9]{4,40}$'
 */
export function parseVariantSpecs(jobInput: Record<string, unknown>): VariantSpec[] {
  if (!isVariantsJob(jobInput)) return [];
  const list = jobInput.variants;
  if (!Array.isArray(list)) throw new UserError('parameter_invalid', 'variants: must be an array', { param: 'variants' });
  if (list.length > MAX_VARIANTS) {
    throw new UserError('parameter_invalid', `variants: at most ${MAX_VARIANTS} variants (got ${list.length})`, { param: 'variants' });
  }
  const seen = new Set<string>();
  return list.map((raw, i) => {
    const at = `variants[${i}]`;
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw invalid(at, 'must be an object');
    const input = { ...(raw as Record<string, unknown>) };
    const unknown = Object.keys(input).find((k) => !(VARIANT_FIELDS as readonly string[]).includes(k));
    if (unknown !== undefined) throw invalid(`${at}.${unknown.slice(0, 60)}`, 'unknown parameter', 'parameter_unknown');
    const id = input.id;
    if (id === undefined || id === null || id === '') throw invalid(`${at}.id`, 'required', 'parameter_missing');
    if (typeof id !== 'string' || !VARIANT_ID.test(id)) throw invalid(`${at}.id`, `must match ${VARIANT_ID.source}`);
    if (seen.has(id)) throw invalid(`${at}.id`, `${id} is listed twice`);
    seen.add(id);
    try {
      return { id, input, size: parseDimensionRequest(input), fit: parseFit(input), presentation: parsePresentation(input) };
    } catch (e) {
      throw specError(i, e);
    }
  });
}
