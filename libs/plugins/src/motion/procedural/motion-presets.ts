/**
 * Motion styles of the built-in offline motion model "procedural": camera moves over ONE still picture,
 * rendered as a seamless loop by `renderProceduralMotion`.
 *
 * Every wave of a camera path runs exactly once per loop (sin/cos of 2*pi*t/duration), so the loop's last
 * frame flows into its first.
 */

/**
 * The camera path of a preset. All waves run once per loop; a phase is in turns of the loop (0..1).
 * Pan and rotation waves follow `-cos`: at phase 0 they start at the far negative side and travel towards
 * the sign of their amplitude first; at phase 0.25 they start centred and travel the same way.
 */
export interface CameraPath {
  /** Extra zoom at the closest point of the loop, e.g. 0.15 = 15 % closer. 0 = no zoom wave. */
  zoom: number;
  /** Phase of the zoom wave: 0 starts at the widest view and pushes in first. */
  zoomPhase: number;
  /** Mirror the zoom wave: start at the closest view and pull out first. */
  zoomOut: boolean;
  /** Horizontal pan, peak offset as a fraction of the framed width; positive travels right first. */
  panX: number;
  panXPhase: number;
  /** Vertical pan, peak offset as a fraction of the framed height; positive travels down first. */
  panY: number;
  panYPhase: number;
  /** Peak roll, degrees (at most 3); positive: the camera rolls clockwise first (the picture seems to turn anticlockwise). */
  rotateDeg: number;
  rotatePhase: number;
}

/** A motion style: what the user picks, the text a motion model is told, and the procedural camera path. */
export interface MotionPreset {
  id: MotionStyle;
  label: string;
  /** One sentence for a motion model's prompt (see `blendMotionPrompt`). */
  description: string;
  camera: CameraPath;
}

export type MotionStyle = 'push-in' | 'pull-out' | 'drift' | 'parallax' | 'sway' | 'breathe' | 'float' | 'orbit';

/** Limits that keep any path (hints included) subtle enough for a still: see `applyMotionHints`. */
export const CAMERA_LIMITS = { maxZoom: 0.5, maxPan: 0.15, maxRotateDeg: 3 } as const;

const STILL: CameraPath = {
  zoom: 0,
  zoomPhase: 0,
  zoomOut: false,
  panX: 0,
  panXPhase: 0,
  panY: 0,
  panYPhase: 0,
  rotateDeg: 0,
  rotatePhase: 0,
};

/**
 * The motion styles, in the order a picker shows them.
 *
 * @example
 * MOTION_PRESETS.map((p) => p.id) // -> ['breathe', 'push-in', 'pull-out', 'drift', 'parallax', 'sway', 'float', 'orbit']
 */
export const MOTION_PRESETS: readonly MotionPreset[] = [
  {
    id: 'breathe',
    label: 'Breathe',
    description: 'Gentle breathing zoom, the camera stays centred.',
    camera: { ...STILL, zoom: 0.04 },
  },
  {
    id: 'push-in',
    label: 'Push in',
    description: 'Slow push in towards the centre of the picture, then ease back out.',
    camera: { ...STILL, zoom: 0.15 },
  },
  {
    id: 'pull-out',
    label: 'Pull out',
    description: 'Start close and slowly pull back to reveal the whole picture, then ease back in.',
    camera: { ...STILL, zoom: 0.15, zoomOut: true },
  },
  {
    id: 'drift',
    label: 'Drift',
    description: 'Slow lateral camera drift across the scene, left to right and back.',
    camera: { ...STILL, panX: 0.04 },
  },
  {
    // No depth map: a pan coupled to a zoom (closer at one end, wider at the other) is what reads as depth.
    id: 'parallax',
    label: 'Parallax',
    description: 'Sideways camera move with a slight push, giving a sense of depth between foreground and background.',
    camera: { ...STILL, panX: 0.05, panY: -0.01, zoom: 0.06 },
  },
  {
    // Phase 0 (start tilted one way, tilted the other way half-way): a sway passing level twice would look like a wobble.
    id: 'sway',
    label: 'Sway',
    description: 'The camera sways gently, tilting a little from side to side.',
    camera: { ...STILL, rotateDeg: 2 },
  },
  {
    id: 'float',
    label: 'Float',
    description: 'The camera floats, bobbing softly up and down with a slight tilt.',
    camera: { ...STILL, panY: 0.03, rotateDeg: 0.75, rotatePhase: 0.25 },
  },
  {
    // x starts centred (phase 0.25), y at the top (phase 0): the camera circles clockwise on screen.
    id: 'orbit',
    label: 'Orbit',
    description: 'The camera circles slowly around the centre of the picture.',
    camera: { ...STILL, panX: 0.03, panXPhase: 0.25, panY: 0.03 },
  },
];

/**
 * The style used when none (or an unknown one) is asked for. 'breathe' because it is the subtlest: it suits
 * any subject (portrait, product, landscape), crops the least and implies no direction the picture may contradict.
 */
export const DEFAULT_MOTION_STYLE: MotionStyle = 'breathe';

/**
 * The preset for a style name; case, spaces and underscores are forgiven ('Push in' -> 'push-in').
 * Unknown or empty names give the default preset, never an error.
 *
 * @example
 * resolveMotionStyle('orbit').id   // -> 'orbit'
 * resolveMotionStyle('spin').id    // -> 'breathe'
 * resolveMotionStyle(undefined).id // -> 'breathe'
 */
export function resolveMotionStyle(style: string | undefined): MotionPreset {
  const key = (style ?? '')
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-');
  return MOTION_PRESETS.find((p) => p.id === key) ?? MOTION_PRESETS.find((p) => p.id === DEFAULT_MOTION_STYLE)!;
}

/** Longest prompt handed to a motion model: the preset's sentence is kept whole, the custom text is cut. */
export const MAX_MOTION_PROMPT = 400;

/**
 * The text prompt handed to a motion model: the preset's description, then the user's custom direction
 * (trimmed, whitespace collapsed); the whole prompt is at most 400 characters.
 *
 * @example
 * blendMotionPrompt(resolveMotionStyle('breathe'), '  leaves rustle\n in the wind ')
 * // -> 'Gentle breathing zoom, the camera stays centred. Custom direction: leaves rustle in the wind'
 */
export function blendMotionPrompt(preset: MotionPreset, customMotion?: string): string {
  const custom = (customMotion ?? '').replace(/\s+/g, ' ').trim();
  if (!custom) return preset.description.slice(0, MAX_MOTION_PROMPT);
  const prompt = `${preset.description} Custom direction: ${custom}`;
  return prompt.slice(0, MAX_MOTION_PROMPT).trimEnd();
}

/** What the procedural renderer reads from the custom text (see `promptHints`). */
export interface MotionHints {
  /** Multiplier on the preset's motion: 0.6 (slow, gentle, subtle), 1.5 (fast, dramatic, strong) or 1. */
  amplitude: number;
  /** 'in' / 'out' when the text says "zoom in", "push in" / "zoom out", "pull out", "pull back". */
  zoom?: 'in' | 'out';
  /** -1 left, 1 right, 0 when the text names neither (or both). */
  panX: -1 | 0 | 1;
  /** -1 up, 1 down, 0 when the text names neither (or both). */
  panY: -1 | 0 | 1;
}

const has = (text: string, re: RegExp) => re.test(text);
// Phrases whose 'up'/'down' is not a direction.
const NOT_DIRECTIONS =
  /\b(close[- ]up|(light|lit|lights|lighting|pick|picks|picking) up|(slow|slows|slowing|calm|calms|calming|settle|settles|settling) down)\b/g;

/** -1, 1 or 0 for a pair of opposite keywords, 0 when both or neither occur. */
function sign(neg: boolean, pos: boolean): -1 | 0 | 1 {
  return neg === pos ? 0 : neg ? -1 : 1;
}

/**
 * The procedural renderer's honest use of a custom motion text: it reads only a few keywords to adjust the
 * camera path, and ignores everything else (it cannot make leaves rustle: only a real motion model can).
 * - 'slow', 'gentle', 'subtle' (and -ly forms) -> amplitude x0.6; 'fast', 'quick', 'dramatic', 'strong' -> x1.5;
 * - 'left' / 'right' / 'up' / 'down' (and -wards forms) -> which way the camera pans first;
 * - 'zoom in' / 'push in' -> push in first; 'zoom out' / 'pull out' / 'pull back' -> pull out first.
 * Opposite keywords together cancel out.
 *
 * @example
 * promptHints('slow zoom out to the left') // -> { amplitude: 0.6, zoom: 'out', panX: -1, panY: 0 }
 * promptHints('leaves rustle in the wind') // -> { amplitude: 1, panX: 0, panY: 0 }
 */
export function promptHints(text: string): MotionHints {
  const t = (text ?? '').toLowerCase();
  const calm = has(t, /\b(slow(ly)?|gentle|gently|subtle|subtly)\b/);
  const lively = has(t, /\b(fast|quick(ly)?|dramatic(ally)?|strong(ly)?)\b/);
  const zoomIn = has(t, /\b(zoom(s|ing)?|push(es|ing)?)\s+in(to|wards?)?\b/);
  const zoomOut = has(t, /\b(zoom(s|ing)?\s+out|pull(s|ing)?\s+(out|back))\b/);
  const dirs = t.replace(NOT_DIRECTIONS, ' ');
  const hints: MotionHints = {
    amplitude: calm === lively ? 1 : calm ? 0.6 : 1.5,
    panX: sign(has(dirs, /\bleft(wards?)?\b/), has(dirs, /\bright(wards?)?\b/)),
    panY: sign(has(dirs, /\bup(wards?)?\b/), has(dirs, /\bdown(wards?)?\b/)),
  };
  if (zoomIn !== zoomOut) hints.zoom = zoomIn ? 'in' : 'out';
  return hints;
}

const clampAbs = (v: number, max: number) => Math.max(-max, Math.min(max, v));

/** Gives a pan amplitude the sign asked for, keeping its size. */
const withSign = (v: number, s: -1 | 0 | 1) => (s === 0 ? v : s * Math.abs(v));

/**
 * The camera path of a preset adjusted by hints, within `CAMERA_LIMITS`. A direction on an axis the preset
 * does not pan moves the preset's pan onto that axis (drift + "up" drifts vertically), unless the other
 * axis is asked for too.
 *
 * @example
 * applyMotionHints(resolveMotionStyle('drift').camera, promptHints('fast, to the left')).panX // -> -0.06
 */
export function applyMotionHints(path: CameraPath, hints: MotionHints): CameraPath {
  let { panX, panY, panXPhase, panYPhase } = path;
  if (hints.panY !== 0 && panY === 0 && hints.panX === 0 && panX !== 0) [panX, panY, panXPhase, panYPhase] = [0, panX, 0, panXPhase];
  else if (hints.panX !== 0 && panX === 0 && hints.panY === 0 && panY !== 0) [panX, panY, panXPhase, panYPhase] = [panY, 0, panYPhase, 0];
  const a = hints.amplitude;
  return {
    zoom: Math.min(CAMERA_LIMITS.maxZoom, Math.abs(path.zoom * a)),
    zoomPhase: path.zoomPhase,
    zoomOut: hints.zoom ? hints.zoom === 'out' : path.zoomOut,
    panX: clampAbs(withSign(panX, hints.panX) * a, CAMERA_LIMITS.maxPan),
    panXPhase,
    panY: clampAbs(withSign(panY, hints.panY) * a, CAMERA_LIMITS.maxPan),
    panYPhase,
    rotateDeg: clampAbs(path.rotateDeg * a, CAMERA_LIMITS.maxRotateDeg),
    rotatePhase: path.rotatePhase,
  };
}
