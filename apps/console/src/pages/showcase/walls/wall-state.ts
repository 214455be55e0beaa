/**
 * The gallery walls section's state, shared by its modules: the showcase's saved walls, the arranger open
 * (the wall edited, its pictures as placed), the drag under way, and the section's elements.
 */
import type { Showcase, ShowcaseItem, Wall } from '../../../shared/api-types';

/** The widest wall the API saves (inches: 40 ft). */
export const MAX_WIDTH = 480;
/** The most pictures on one wall. */
export const MAX_PICS = 12;
/** The sofa drawn under the pictures for scale, in inches. */
export const SOFA = { w: 84, h: 33 };
export const NS = 'http://www.w3.org/2000/svg';

/** A picture on the wall: its outer centre (from the wall's centre, y up) and outer size, inches. */
export interface Pic {
  item_id: number;
  variant_sku: string | null;
  x: number;
  y: number;
  w: number;
  h: number;
}
/** A ticked picture, in the order ticked, with the variant chosen. */
export interface Pick {
  item_id: number;
  variant_sku: string | null;
}
/** The part of the wall drawn, inches from its centre: left, right, top, bottom. */
export interface View {
  l: number;
  r: number;
  t: number;
  b: number;
}

/** The open arranger: the wall edited (null: a new one), the ticked pictures, their layout, the view. */
export interface Arranger {
  wall: Wall | null;
  sel: Pick[];
  pics: Pic[];
  /** The wall's arrangement: a preset, or custom once a picture is moved. */
  arrangement: Wall['arrangement'];
  /** The preset the layout comes from (and Save sends for a preset wall). */
  preset: Wall['arrangement'];
  view: View | null;
  /** Where the sofa's top is (inches), fixed by a new layout. */
  sofaTop: number | null;
  /** Something to lose on Cancel; something to send on Save (an edit's layout). */
  dirty: boolean;
  touched: boolean;
  saving: boolean;
  /** The pictures offered (ids and variant counts): the list is built again when they change. */
  picksKey?: string;
  /** px per inch, and the wall centre's place in the stage (px), as last drawn. */
  scale: number;
  ox: number;
  oy: number;
}

/** A picture dragged by a pointer: its index, element, pointer, start (px) and place (inches). */
export interface Drag {
  i: number;
  el: HTMLButtonElement;
  id: number;
  sx: number;
  sy: number;
  x0: number;
  y0: number;
  moved: boolean;
}

export interface WallElements {
  list: HTMLDivElement;
  result: HTMLDivElement;
  newBtn: HTMLButtonElement;
  title: HTMLHeadingElement;
  name: HTMLInputElement;
  nameErr: HTMLParagraphElement;
  picks: HTMLUListElement;
  picksHint: HTMLParagraphElement;
  arrBtns: HTMLButtonElement[];
  arrNow: HTMLParagraphElement;
  gap: HTMLInputElement;
  align: HTMLSelectElement;
  columns: HTMLInputElement;
  stage: HTMLDivElement;
  size: HTMLParagraphElement;
  live: HTMLParagraphElement;
  problem: HTMLParagraphElement;
  err: HTMLParagraphElement;
  save: HTMLButtonElement;
  cancel: HTMLButtonElement;
  price: HTMLSpanElement;
  arranger: HTMLDivElement;
  section: HTMLElement;
}

export interface WallsState {
  /** The showcase's walls path, /api/v2/showcases/{id}/walls. */
  WALLS: string;
  /** The showcase as last loaded by the page (its pictures to choose from). */
  showcase: Showcase | null;
  walls: Wall[];
  listTimer: ReturnType<typeof setTimeout> | undefined;
  resultTimer: ReturnType<typeof setTimeout> | undefined;
  A: Arranger | null;
  /** The latest layout asked: an older answer that comes later is dropped. */
  layoutSeq: number;
  layoutTimer: ReturnType<typeof setTimeout> | undefined;
  drag: Drag | null;
  E: WallElements;
  /** A picture's name as the page shows it. */
  itemName: (it: ShowcaseItem) => string;
}

/** Filled by galleryWalls when the section is built. */
export const W = { showcase: null, walls: [], A: null, layoutSeq: 0, drag: null } as unknown as WallsState;
