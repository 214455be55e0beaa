import { UserError } from '@app/pipeline';
import {
  parsePresentation,
  PRESENTATION_DEFAULT_FIELDS,
  PRESENTATION_FIELDS,
  PresentationInput,
  presentationInputShape,
} from '@app/plugins';
import { parseInput, z } from '@app/schema';

/**
 * The presentation fields of a request as sent (placement, frame, mat, finish, banner...), once validated:
 * what a job's input carries (libs/plugins PresentationInput). The pipeline resolves them itself with
 * parsePresentation, with the defaults of the version that runs the job.
 */
export type { PresentationInput };
export type PresentationField = (typeof PRESENTATION_FIELDS)[number];

const present = (v: unknown) => v !== undefined && v !== null;

/** The fields a showcase takes as defaults for its items. */
export const SHOWCASE_DEFAULT_FIELDS: readonly string[] = PRESENTATION_DEFAULT_FIELDS;

/** The non-null `fields` of `body`, as sent (null means "not given", as for every other parameter). */
export function pickPresentation(body: Record<string, unknown>, fields: readonly string[] = PRESENTATION_FIELDS): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of fields) if (present(body[k])) out[k] = body[k];
  return out;
}

/**
 * Validates the presentation fields of a request body and returns them as sent, typed, for the job input.
 * A bad value is a UserError naming `prefix` + the parameter (the error filter answers 400).
 *
 * @example
 * Object.assign(input, acceptPresentation({ image_url, frame: { style: 'classic', color: 'oak' }, title: 'Dunes' }))
 */
export function acceptPresentation(
  body: Record<string, unknown>,
  fields: readonly string[] = PRESENTATION_FIELDS,
  prefix = '',
): PresentationInput {
  return parseInput(PresentationInput, pickPresentation(body, fields), { prefix });
}

/** Types fields parsePresentation has accepted, as they were sent (it checks more than their types: see mergeItemPresentation). */
const AsSent = z.looseObject(presentationInputShape);

/**
 * A showcase item's presentation: its own fields over the showcase's defaults, field by field (an item's
 * `frame` replaces the default frame whole; an item field sent as null drops that default for the item).
 * Validated as the job will be; every error names `prefix` + the parameter, also when the conflict comes
 * from an inherited default (e.g. the item's canvas frame and the showcase's mat).
 */
export function mergeItemPresentation(item: Record<string, unknown>, defaults: PresentationInput, prefix: string): PresentationInput {
  const own = pickPresentation(item);
  const inherited: PresentationInput = {};
  for (const [k, v] of Object.entries(defaults)) if (!(k in item) && present(v)) inherited[k] = v;
  try {
    // The item's fields with the defaults they inherit: a mat of its own may hang in an inherited frame.
    parsePresentation(own, inherited, prefix);
  } catch (e) {
    if (e instanceof UserError && e.param && !e.param.startsWith(prefix)) {
      const field = e.param.split(/[.[]/)[0];
      throw new UserError(
        e.code,
        `${prefix}${e.message} (${field} comes from the showcase's defaults; send ${prefix}${field}: null to drop it for this item)`,
        { param: `${prefix}${e.param}` },
      );
    }
    throw e;
  }
  return { ...inherited, ...AsSent.parse(own) };
}
