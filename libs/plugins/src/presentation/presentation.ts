import { parseInput, z } from '@app/schema';
import { UserError } from '@app/pipeline';
import {
  FLOAT_DEFAULT_REVEAL,
  FRAME_DEFAULTS,
  PRESENTATION_DEFAULT_FIELDS,
  PRESENTATION_FIELDS,
  type Banner,
  type FrameSpec,
  type MatSpec,
  type Presentation,
} from './presentation.model';
import { FrameRequest, MatRequest, PresentationFields, presentationDefaultsShape } from './presentation.schema';

export * from './presentation.model';
export * from './presentation.schema';

const PresentationDefaults = z.strictObject(presentationDefaultsShape);

/** The fields of `from` that are given (null means "not given", as for every parameter). */
function given(from: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of fields) if (from[k] !== undefined && from[k] !== null) out[k] = from[k];
  return out;
}

function resolveFrame(f: z.output<typeof FrameRequest>): FrameSpec {
  const style = f.style ?? 'classic';
  const d = FRAME_DEFAULTS[style];
  const frame: FrameSpec = {
    style,
    width_inches: f.width_inches ?? d.width,
    depth_inches: f.depth_inches ?? d.depth,
    color: f.color ?? d.color,
  };
  if (style === 'canvas') frame.edge = f.edge ?? 'mirror';
  return frame;
}

const resolveMat = (m: z.output<typeof MatRequest>): MatSpec => ({ width_inches: m.width_inches, color: m.color ?? 'white' });

/**
 * Validates and resolves the presentation fields of a request (wall placement, locked size, frame,
 * mat, finish, buy banner) against their one declaration ({@link PresentationFields}). Fields absent from
 * `input` come from `defaults` (a showcase's), then from the built-in defaults: wall, size locked, unlit,
 * no frame, no mat, no banner. Errors are UserErrors naming the parameter (`prefix` + field, e.g.
 * `items[2].frame.style`); a conflict with an inherited default names the default's field, unprefixed.
 *
 * @example
 * parsePresentation({ frame: { style: 'classic', color: 'oak' }, mat: { width_inches: 2 }, title: 'Sunset' })
 */
export function parsePresentation(input: Record<string, unknown>, defaults: Record<string, unknown> = {}, prefix = ''): Presentation {
  const own = parseInput(PresentationFields, given(input, PRESENTATION_FIELDS), { prefix });
  const inherited = parseInput(PresentationDefaults, given(defaults, PRESENTATION_DEFAULT_FIELDS));
  const pick = <K extends keyof typeof inherited>(k: K) =>
    own[k] != null ? { v: own[k]!, p: prefix } : inherited[k] != null ? { v: inherited[k]!, p: '' } : undefined;
  const frameIn = pick('frame');
  const matIn = pick('mat');
  const frame: FrameSpec = frameIn
    ? resolveFrame(frameIn.v)
    : { style: 'none', width_inches: 0, depth_inches: FRAME_DEFAULTS.none.depth, color: FRAME_DEFAULTS.none.color };
  let mat = matIn ? resolveMat(matIn.v) : null;
  if (mat && (frame.style === 'canvas' || frame.style === 'none')) {
    const param = `${matIn!.p}mat`;
    throw new UserError('parameter_invalid', `${param}: a mat needs a frame around it (frame.style "${frame.style}" takes none)`, {
      param,
    });
  }
  if (!mat && frame.style === 'float') mat = { ...FLOAT_DEFAULT_REVEAL };
  const banner: Banner = {};
  for (const k of ['title', 'subtitle', 'call_to_action', 'price', 'link_url'] as const) if (own[k] != null) banner[k] = own[k]!;
  return {
    placement: pick('placement')?.v ?? 'wall',
    allow_scaling: pick('allow_scaling')?.v ?? false,
    finish: pick('finish')?.v ?? 'unlit',
    frame,
    mat,
    banner,
  };
}
