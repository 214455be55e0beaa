/**
 * The variants editor's state, shared by its modules: the picture's variants as a table (rows, the model
 * the table and the drawing are made from), what the page says about frames (data-look), the panel.
 */
import type { ItemVariant, ShowcaseItem } from '../../../shared/api-types';
import { $ } from '../../../shared/dom';
import type { ShowcaseView } from '../showcase-state';

/** A frame style's moulding as the engine draws it (libs/plugins FRAME_DEFAULTS): width in inches, colour. */
export interface FrameLook {
  width: number;
  color: string;
}
/** What the page says (body[data-look], console.pages.ts) about frames, colours and limits. */
export interface Look {
  colors?: Record<string, string>;
  frames?: Record<string, FrameLook>;
  float_reveal?: { width_inches: number; color: string };
  max_variants?: number;
}

/** A row of the table: each value as its inputs hold it (sizes in the showcase's unit), and its variant's state. */
export interface VariantRow {
  /** Its variant's id, or "n<seq>" for a new row. */
  key: string;
  id: string | null;
  sku: string;
  name: string;
  width: string;
  height: string;
  /** '' for no frame. */
  frame: string;
  /** '' for the style's standard colour. */
  frame_color: string;
  /** null for the style's standard width. */
  frame_width: number | null;
  mat: string;
  mat_color: string;
  price: string;
  availability: string;
  default: boolean;
  link_url: string | null;
  call_to_action: string | null;
  /** The variant's status, or "new". */
  status: string;
  /** The variant as built (its poster): while it is ready. */
  build: Partial<ItemVariant> | null;
  error: { message: string } | null;
  /** The cell and control a 400 named, and its message. */
  errors: { cell?: string; control?: string; message?: string };
}

/** What a row edits (V_KEYS): compared to know whether the table has unsaved changes. */
export type VariantValues = Pick<VariantRow, (typeof V_KEYS)[number]>;

/** The panel's parts, built once per opening. */
export interface VariantElements {
  holder: HTMLDivElement;
  err: HTMLParagraphElement;
  add: HTMLButtonElement;
  save: HTMLButtonElement;
  reset: HTMLButtonElement;
  dirty: HTMLSpanElement;
  title: HTMLHeadingElement;
  canvas: HTMLCanvasElement;
  caption: HTMLParagraphElement;
  built: HTMLDivElement;
}

/** The open table: its item, rows, the variants as loaded (by SKU, by id). */
export interface VariantEditor {
  itemId: number;
  units: ShowcaseView['units'];
  /** The row drawn in the preview (its key). */
  selected: string | null;
  /** The row dragged by its handle. */
  dragKey: string | null;
  saving: boolean;
  /** A data-key to focus after the next render. */
  focusNext: string | null;
  el: VariantElements;
  item: ShowcaseItem;
  /** The item's variants as last taken (JSON): a load that brings the same leaves the table alone. */
  source: string;
  rows: VariantRow[];
  bySku: Record<string, VariantValues>;
  byId: Record<string, VariantValues>;
  /** The rows' values as loaded (JSON): the table is dirty when they differ. */
  snapshot: string;
}

/** What a row edits; the rest of a row is its variant's state (status, built files). */
export const V_KEYS = [
  'sku',
  'name',
  'width',
  'height',
  'frame',
  'frame_color',
  'frame_width',
  'mat',
  'mat_color',
  'price',
  'availability',
  'default',
] as const;
export const V_FRAME = ['frame', 'frame_color', 'frame_width', 'mat', 'mat_color'] as const;
export const V_LOOK = ['width', 'height', ...V_FRAME] as const;
/** The frame styles with a moulding (and so a mat). */
export const MOULDED = ['thin', 'classic', 'float'];

export interface VariantsState {
  LOOK: Look;
  COLORS: Record<string, string>;
  COLOR_NAMES: string[];
  FRAME_LOOK: Record<string, FrameLook>;
  MAX_VARIANTS: number;
  panel: HTMLElement;
  body: HTMLElement;
  /** The open table (null when closed). */
  ve: VariantEditor | null;
  /** Numbers new rows' keys. */
  seq: number;
  /** Pictures drawn in the preview, by URL. */
  imgs: Record<string, { img: HTMLImageElement; ready: boolean }>;
}

/** Filled by {@link initVariantsState} when the showcase page starts. */
export const vs = { ve: null, seq: 0, imgs: {} } as unknown as VariantsState;

export function initVariantsState(): void {
  vs.LOOK = JSON.parse(document.body.getAttribute('data-look') || '{}');
  vs.COLORS = vs.LOOK.colors || {};
  vs.FRAME_LOOK = vs.LOOK.frames || {};
  vs.MAX_VARIANTS = vs.LOOK.max_variants || 24;
  vs.panel = $('[data-testid=variants]')!;
  vs.body = $('[data-testid=variants-body]')!;
  vs.COLOR_NAMES = Object.keys(vs.COLORS);
}
