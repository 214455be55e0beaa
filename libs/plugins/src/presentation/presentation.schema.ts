import { requestSchema, z } from '@app/schema';
import { COLOR_PRESETS, FINISHES, FRAME_DEFAULTS, FRAME_STYLES, PLACEMENTS, type FrameStyle } from './presentation.model';

/**
 * The presentation fields of a request ("wall-ready AR"), declared once: they validate every request that
 * takes them (v1, animated AR, showcase defaults and items), word its 400s and document it in OpenAPI.
 * parsePresentation resolves them with their defaults for the pipeline.
 */

const PRESETS = Object.entries(COLOR_PRESETS)
  .map(([name, hex]) => `${name} (${hex})`)
  .join(', ');
const COLOR = `A preset (${PRESETS}; oak and walnut also get a wood grain) or "#rrggbb".`;
const STYLE_DEFAULTS = FRAME_STYLES.map(
  (s) => `${s}: ${FRAME_DEFAULTS[s].width} in wide, ${FRAME_DEFAULTS[s].depth} in deep, ${FRAME_DEFAULTS[s].color}`,
).join('; ');
/** How a frame and a mat add to the picture's size (docs). */
export const OUTER_RULE =
  'The outer size of the framed object: a frame adds 2 x (frame width + mat width) to the picture\'s width and height (frame width + mat width on each side); "none" and "canvas" keep the picture size.';

const quoted = (values: readonly string[]) => values.map((a) => `"${a}"`).join(', ');
const oneOf = <T extends string>(values: readonly T[]) =>
  z.enum(values as unknown as [T, ...T[]], { error: () => `must be one of ${quoted(values)}` });

const inches = ([min, max]: readonly [number, number]) =>
  z
    .number({ error: (iss) => (iss.input === undefined ? 'required' : 'must be a number of inches') })
    .refine(Number.isFinite, { error: () => 'must be a number of inches' })
    .min(min, { error: () => `must be between ${min} and ${max} inches` })
    .max(max, { error: () => `must be between ${min} and ${max} inches` })
    .transform((v) => Math.round(v * 1000) / 1000);

const COLOR_MESSAGE = `must be a colour: ${Object.keys(COLOR_PRESETS).join(', ')} or "#rrggbb"`;
/** A preset name or `#rrggbb`, lower-cased. */
export const colorField = z
  .string({ error: () => COLOR_MESSAGE })
  .transform((v) => v.trim().toLowerCase())
  .refine((c) => COLOR_PRESETS[c] !== undefined || /^#[0-9a-f]{6}$/.test(c), { error: () => COLOR_MESSAGE });

const objectError = (iss: { code: string; input?: unknown }) => (iss.code === 'unrecognized_keys' ? 'unknown field' : 'must be an object');

export const LIMITS = { frameWidth: [0.1, 6], depth: [0.04, 6], matWidth: [0.1, 12] } as const;

const frameObject = z
  .strictObject(
    {
      style: oneOf(FRAME_STYLES)
        .nullish()
        .meta({
          default: 'classic',
          description: `Frame style (default "classic" when a frame object is given). Defaults per style: ${STYLE_DEFAULTS}. "float": the picture floats in the frame with a reveal (the mat, or 0.5 in white when none is given). "canvas": a gallery-wrapped canvas, no moulding.`,
          example: 'classic',
        }),
      width_inches: inches(LIMITS.frameWidth)
        .nullish()
        .meta({ description: 'Moulding width seen from the front, each side, in inches. Not for "none" or "canvas".', example: 1.5 }),
      depth_inches: inches(LIMITS.depth)
        .nullish()
        .meta({ description: 'Depth of the whole object from the wall, in inches.', example: 1.25 }),
      color: colorField.nullish().meta({ description: `Moulding colour. ${COLOR}`, example: 'oak' }),
      edge: z
        .union([z.literal('mirror'), colorField], { error: () => COLOR_MESSAGE })
        .nullish()
        .meta({
          description: `"canvas" only: "mirror" (default: the picture's edges continue around the sides) or a solid colour: ${COLOR}`,
          example: 'mirror',
        }),
    },
    { error: objectError },
  )
  .superRefine((f, ctx) => {
    const style: FrameStyle = f.style ?? 'classic';
    if (f.width_inches != null && (style === 'none' || style === 'canvas'))
      ctx.addIssue({ code: 'custom', path: ['width_inches'], message: `a "${style}" frame has no moulding width` });
    if (f.edge != null && style !== 'canvas') ctx.addIssue({ code: 'custom', path: ['edge'], message: 'only a "canvas" frame has edges' });
  });

/** A frame object as sent; `frame: "classic"` is shorthand for `{style: "classic"}`. Inline in the documents, beside the shorthand. */
export const FrameRequest = frameObject;

/** `frame`: a style name or a frame object (the name is read as `{style}`, so a bad one names `frame.style`). */
export const frameField = z
  .preprocess((v) => (typeof v === 'string' ? { style: v } : v), FrameRequest)
  .meta({
    shorthand: [...FRAME_STYLES],
    description: `The frame: a style name ("none", "thin", "classic", "float", "canvas"; shorthand for {style}) or an object {style, width_inches, depth_inches, color, edge}. No frame when absent. ${OUTER_RULE}`,
  });

export const MatRequest = requestSchema(
  'MatRequestDto',
  z.strictObject(
    {
      width_inches: inches(LIMITS.matWidth).meta({
        description: 'Mat (passe-partout) width between the picture and the frame, each side, in inches.',
        example: 2,
      }),
      color: colorField.nullish().meta({ default: 'white', description: `Mat colour. ${COLOR}`, example: 'white' }),
    },
    { error: objectError },
  ),
);

/** Banner texts: trimmed, not empty, no control characters (they end up in URL fragments and page titles). */
const bannerText = (max: number) =>
  z
    .string({ error: () => 'must be a string' })
    .transform((v) => v.trim())
    .refine((t) => t.length > 0, { error: () => 'must not be empty' })
    .refine((t) => !/\p{Cc}/u.test(t), { error: () => 'must not contain control characters' })
    .refine((t) => [...t].length <= max, { error: () => `at most ${max} characters` })
    .meta({ maxLength: max });

const linkUrl = z
  .string({ error: () => 'must be an https URL of at most 2048 characters' })
  .superRefine((v, ctx) => {
    if (v.length > 2048) return void ctx.addIssue({ code: 'custom', message: 'must be an https URL of at most 2048 characters' });
    if (!URL.canParse(v)) return void ctx.addIssue({ code: 'custom', message: 'must be an https URL' });
    const u = new URL(v);
    if (u.protocol !== 'https:')
      return void ctx.addIssue({ code: 'custom', message: 'must be an https URL', params: { code: 'https_required' } });
    if (u.username || u.password) ctx.addIssue({ code: 'custom', message: 'must not carry credentials' });
  })
  .transform((v) => new URL(v).toString())
  .meta({ format: 'uri', maxLength: 2048 });

/** The fields a showcase takes as defaults for its items; also part of every picture request. */
export const presentationDefaultsShape = {
  placement: oneOf(PLACEMENTS).nullish().meta({
    default: 'wall',
    description:
      'How the model is placed in AR: hung on a wall (default: placed on a vertical surface, like a picture) or standing on the floor.',
    example: 'wall',
  }),
  allow_scaling: z
    .boolean({ error: () => 'must be true or false' })
    .nullish()
    .meta({
      default: false,
      description: 'Whether people may pinch-scale the model in AR. Default false: the picture keeps its real, physical size.',
      example: false,
    }),
  finish: oneOf(FINISHES).nullish().meta({
    default: 'unlit',
    description:
      '"unlit" (default): the picture\'s exact colours, whatever the room\'s light. "matte" / "gloss": lit by the room, without or with a sheen.',
    example: 'matte',
  }),
  frame: frameField.nullish(),
  mat: MatRequest.nullish().meta({
    description: `A mat between the picture and the frame; needs a frame with moulding ("thin", "classic", "float"), not "none" or "canvas". ${OUTER_RULE}`,
  }),
};

/** Every presentation field of a picture: the defaults' fields plus the AR banner. */
export const presentationShape = {
  ...presentationDefaultsShape,
  title: bannerText(60).nullish().meta({
    description: 'Banner title (AR Quick Look banner, Scene Viewer title, embed caption): 1 to 60 characters, no control characters.',
    example: 'Dunes at Dawn',
  }),
  subtitle: bannerText(120).nullish().meta({ description: 'Banner subtitle: at most 120 characters.', example: 'Giclée print, signed' }),
  link_url: linkUrl.nullish().meta({
    description: 'https URL the banner leads to (e.g. the product page); no credentials.',
    example: 'https://shop.example.com/dunes',
  }),
  call_to_action: bannerText(30)
    .nullish()
    .meta({ description: 'Banner button label, at most 30 characters; needs link_url.', example: 'Buy now' }),
  price: bannerText(30).nullish().meta({ description: 'Price shown in the banner, as text (at most 30 characters).', example: '$120' }),
};

/** A banner button must lead somewhere. */
export function requireLinkForCallToAction(v: { call_to_action?: unknown; link_url?: unknown }, ctx: z.RefinementCtx): void {
  if (v.call_to_action != null && v.link_url == null)
    ctx.addIssue({
      code: 'custom',
      path: ['call_to_action'],
      message: 'needs a link_url to lead to',
      params: { code: 'parameter_missing' },
    });
}

/** The presentation fields alone (what parsePresentation checks in a job's input). */
export const PresentationFields = z.strictObject(presentationShape).superRefine(requireLinkForCallToAction);
export type PresentationFieldsOutput = z.output<typeof PresentationFields>;
