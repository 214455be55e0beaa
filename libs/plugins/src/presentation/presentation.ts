import { UserError } from '@app/pipeline';

/** How the model is placed in AR: hung on a wall (default) or standing on the floor. */
export type Placement = 'wall' | 'floor';
export type FrameStyle = 'none' | 'thin' | 'classic' | 'float' | 'canvas';
/** `unlit`: exact colours, ignores the room's light. `matte` / `gloss`: lit by the room. */
export type Finish = 'unlit' | 'matte' | 'gloss';

export const PLACEMENTS: readonly Placement[] = ['wall', 'floor'];
export const FRAME_STYLES: readonly FrameStyle[] = ['none', 'thin', 'classic', 'float', 'canvas'];
export const FINISHES: readonly Finish[] = ['unlit', 'matte', 'gloss'];

/** Named colours (sRGB hex); anything else must be `#rrggbb`. Oak and walnut also get a wood grain. */
export const COLOR_PRESETS: Readonly<Record<string, string>> = {
  black: '#1c1c1c',
  white: '#f3f1ec',
  oak: '#b8895a',
  walnut: '#5a3a28',
  gold: '#c5a253',
  silver: '#b9bcc1',
};

export interface FrameSpec {
  style: FrameStyle;
  /** Moulding width seen from the front, each side (0 for none and canvas). */
  width_inches: number;
  /** The whole object's depth from the wall. */
  depth_inches: number;
  /** Preset name or `#rrggbb`. */
  color: string;
  /** Canvas only: the picture's edges continue around the sides (`mirror`) or a solid colour. */
  edge?: string;
}

export interface MatSpec {
  width_inches: number;
  color: string;
}

/** The AR banner (Quick Look) / title and link (Scene Viewer) / desktop preview caption. */
export interface Banner {
  title?: string;
  subtitle?: string;
  link_url?: string;
  call_to_action?: string;
  price?: string;
}

/** Everything about how a picture is presented in AR, resolved with defaults. */
export interface Presentation {
  placement: Placement;
  allow_scaling: boolean;
  finish: Finish;
  frame: FrameSpec;
  mat: MatSpec | null;
  banner: Banner;
}

/** Request fields read by {@link parsePresentation} (top level of v1 / animated AR, per showcase item). */
export const PRESENTATION_FIELDS = [
  'placement',
  'allow_scaling',
  'finish',
  'frame',
  'mat',
  'title',
  'subtitle',
  'link_url',
  'call_to_action',
  'price',
] as const;
/** The subset a showcase takes as defaults for its items. */
export const PRESENTATION_DEFAULT_FIELDS = ['placement', 'allow_scaling', 'finish', 'frame', 'mat'] as const;

/** Per style: default moulding width and depth (inches) and colour. */
export const FRAME_DEFAULTS: Readonly<Record<FrameStyle, { width: number; depth: number; color: string }>> = {
  none: { width: 0, depth: 0.04, color: 'white' },
  thin: { width: 0.5, depth: 0.75, color: 'black' },
  classic: { width: 1.5, depth: 1.25, color: 'walnut' },
  float: { width: 0.75, depth: 1.5, color: 'black' },
  canvas: { width: 0, depth: 1.5, color: 'white' },
};
/** A float frame shows a reveal around the picture: the mat, or this default when none is given. */
export const FLOAT_DEFAULT_REVEAL = { width_inches: 0.5, color: 'white' } as const;

const LIMITS = { frameWidth: [0.1, 6], depth: [0.04, 6], matWidth: [0.1, 12] } as const;
const TEXT_LIMITS = { title: 60, subtitle: 120, call_to_action: 30, price: 30 } as const;

function invalid(param: string, message: string, code = 'parameter_invalid'): UserError {
  return new UserError(code, `${param}: ${message}`, { param });
}

function oneOf<T extends string>(param: string, v: unknown, allowed: readonly T[]): T {
  if (typeof v !== 'string' || !allowed.includes(v as T)) throw invalid(param, `must be one of ${allowed.map((a) => `"${a}"`).join(', ')}`);
  return v as T;
}

function inches(param: string, v: unknown, [min, max]: readonly [number, number]): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw invalid(param, 'must be a number of inches');
  if (v < min || v > max) throw invalid(param, `must be between ${min} and ${max} inches`);
  return Math.round(v * 1000) / 1000;
}

/** A preset name or `#rrggbb`, lower-cased. */
export function parseColor(param: string, v: unknown): string {
  if (typeof v !== 'string') throw invalid(param, `must be a colour: ${Object.keys(COLOR_PRESETS).join(', ')} or "#rrggbb"`);
  const c = v.trim().toLowerCase();
  if (COLOR_PRESETS[c] || /^#[0-9a-f]{6}$/.test(c)) return c;
  throw invalid(param, `must be a colour: ${Object.keys(COLOR_PRESETS).join(', ')} or "#rrggbb"`);
}

/** sRGB hex of a parsed colour. */
export function colorHex(c: string): string {
  return COLOR_PRESETS[c] ?? c;
}

function object(param: string, v: unknown, keys: readonly string[]): Record<string, unknown> {
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw invalid(param, 'must be an object');
  const unknown = Object.keys(v).find((k) => !keys.includes(k));
  if (unknown) throw invalid(`${param}.${unknown}`, 'unknown field', 'parameter_unknown');
  return v as Record<string, unknown>;
}

const has = (o: Record<string, unknown>, k: string) => o[k] !== undefined && o[k] !== null;

function parseFrame(param: string, v: unknown): FrameSpec {
  if (typeof v === 'string') v = { style: v };
  const o = object(param, v, ['style', 'width_inches', 'depth_inches', 'color', 'edge']);
  const style = has(o, 'style') ? oneOf(`${param}.style`, o.style, FRAME_STYLES) : 'classic';
  const d = FRAME_DEFAULTS[style];
  const frame: FrameSpec = {
    style,
    width_inches: d.width,
    depth_inches: has(o, 'depth_inches') ? inches(`${param}.depth_inches`, o.depth_inches, LIMITS.depth) : d.depth,
    color: has(o, 'color') ? parseColor(`${param}.color`, o.color) : d.color,
  };
  if (has(o, 'width_inches')) {
    if (style === 'none' || style === 'canvas') throw invalid(`${param}.width_inches`, `a "${style}" frame has no moulding width`);
    frame.width_inches = inches(`${param}.width_inches`, o.width_inches, LIMITS.frameWidth);
  }
  if (style === 'canvas') frame.edge = has(o, 'edge') ? (o.edge === 'mirror' ? 'mirror' : parseColor(`${param}.edge`, o.edge)) : 'mirror';
  else if (has(o, 'edge')) throw invalid(`${param}.edge`, 'only a "canvas" frame has edges');
  return frame;
}

function parseMat(param: string, v: unknown): MatSpec {
  const o = object(param, v, ['width_inches', 'color']);
  if (!has(o, 'width_inches')) throw invalid(`${param}.width_inches`, 'required', 'parameter_missing');
  return {
    width_inches: inches(`${param}.width_inches`, o.width_inches, LIMITS.matWidth),
    color: has(o, 'color') ? parseColor(`${param}.color`, o.color) : 'white',
  };
}

function text(param: keyof typeof TEXT_LIMITS, v: unknown, prefix: string): string {
  if (typeof v !== 'string') throw invalid(`${prefix}${param}`, 'must be a string');
  const t = v.trim();
  if (!t) throw invalid(`${prefix}${param}`, 'must not be empty');
  // Control characters would end up in URL fragments and page titles.
  if (/\p{Cc}/u.test(t)) throw invalid(`${prefix}${param}`, 'must not contain control characters');
  if ([...t].length > TEXT_LIMITS[param]) throw invalid(`${prefix}${param}`, `at most ${TEXT_LIMITS[param]} characters`);
  return t;
}

function linkUrl(v: unknown, prefix: string): string {
  const param = `${prefix}link_url`;
  if (typeof v !== 'string' || v.length > 2048) throw invalid(param, 'must be an https URL of at most 2048 characters');
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw invalid(param, 'must be an https URL');
  }
  if (u.protocol !== 'https:') throw invalid(param, 'must be an https URL', 'https_required');
  if (u.username || u.password) throw invalid(param, 'must not carry credentials');
  return u.toString();
}

/**
 * Validates and resolves the presentation fields of a request (wall placement, locked size, frame,
 * mat, finish, buy banner). Fields absent from `input` come from `defaults` (a showcase's), then from
 * the built-in defaults: wall, size locked, unlit, no frame, no mat, no banner. Errors are UserErrors
 * naming the parameter (`prefix` + field, e.g. `items[2].frame.style`).
 *
 * @example
 * parsePresentation({ frame: { style: 'classic', color: 'oak' }, mat: { width_inches: 2 }, title: 'Sunset' })
 */
export function parsePresentation(input: Record<string, unknown>, defaults: Record<string, unknown> = {}, prefix = ''): Presentation {
  const pick = (k: string) => (has(input, k) ? { v: input[k], p: prefix } : has(defaults, k) ? { v: defaults[k], p: '' } : undefined);
  const placement = pick('placement');
  const scaling = pick('allow_scaling');
  const finish = pick('finish');
  const frameIn = pick('frame');
  const matIn = pick('mat');
  if (scaling && typeof scaling.v !== 'boolean') throw invalid(`${scaling.p}allow_scaling`, 'must be true or false');
  const frame = frameIn
    ? parseFrame(`${frameIn.p}frame`, frameIn.v)
    : { style: 'none' as const, width_inches: 0, depth_inches: FRAME_DEFAULTS.none.depth, color: FRAME_DEFAULTS.none.color };
  let mat = matIn ? parseMat(`${matIn.p}mat`, matIn.v) : null;
  if (mat && (frame.style === 'canvas' || frame.style === 'none')) {
    throw invalid(`${matIn!.p}mat`, `a mat needs a frame around it (frame.style "${frame.style}" takes none)`);
  }
  if (!mat && frame.style === 'float') mat = { ...FLOAT_DEFAULT_REVEAL };
  const banner: Banner = {};
  for (const k of ['title', 'subtitle', 'call_to_action', 'price'] as const) {
    if (has(input, k)) banner[k] = text(k, input[k], prefix);
  }
  if (has(input, 'link_url')) banner.link_url = linkUrl(input.link_url, prefix);
  if (banner.call_to_action && !banner.link_url)
    throw invalid(`${prefix}call_to_action`, 'needs a link_url to lead to', 'parameter_missing');
  return {
    placement: placement ? oneOf(`${placement.p}placement`, placement.v, PLACEMENTS) : 'wall',
    allow_scaling: scaling ? (scaling.v as boolean) : false,
    finish: finish ? oneOf(`${finish.p}finish`, finish.v, FINISHES) : 'unlit',
    frame,
    mat,
    banner,
  };
}

/** Outer size of the framed object: the picture plus 2 x (frame + mat) per side; canvas = the picture. */
export function outerDimensions(
  picture: { width_inches: number; height_inches: number },
  p: Pick<Presentation, 'frame' | 'mat'>,
): { width_inches: number; height_inches: number; depth_inches: number } {
  const border = p.frame.style === 'canvas' || p.frame.style === 'none' ? 0 : 2 * (p.frame.width_inches + (p.mat?.width_inches ?? 0));
  const r = (n: number) => Math.round(n * 1000) / 1000;
  return {
    width_inches: r(picture.width_inches + border),
    height_inches: r(picture.height_inches + border),
    depth_inches: r(p.frame.depth_inches),
  };
}
