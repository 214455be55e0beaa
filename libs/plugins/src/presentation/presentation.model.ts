// The presentation model: placements, frames, mats, finishes, the banner, and their defaults.
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

/** sRGB hex of a parsed colour. */
export function colorHex(c: string): string {
  return COLOR_PRESETS[c] ?? c;
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
