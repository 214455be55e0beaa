/**
 * What the showcase page's modules share (one page per load): the showcase as last loaded, its cards, the
 * rebuilds and moves under way, and the page's fixed elements. Filled by showcasePage when it starts.
 */
import type { Showcase } from '../../shared/api-types';

/** A picture's card: rebuilt only when its key (the item, its place, what is open) changes. */
export interface Card {
  key: string;
  el: HTMLLIElement;
}

/** The showcase as the page holds it: a load's answer, or (while a new order is saved) its items reordered. */
export type ShowcaseView = Pick<Showcase, 'items' | 'units'>;

/** The branding form: its fields by name. */
export type BrandingForm = HTMLFormElement & {
  tagline: HTMLInputElement;
  primary_color: HTMLInputElement;
  secondary_color: HTMLInputElement;
  description: HTMLTextAreaElement;
  layout_choice: HTMLSelectElement;
};

/**
 * What the page does for its parts, set by showcasePage before anything can call it. The parts (cards,
 * order, edit form, uploads, import, variants) call back through it rather than import the page or the
 * cards, which import them: each depends only on what is below it.
 */
export interface ShowcaseActions {
  /** Loads the showcase again and draws it (and polls while anything is on its way). */
  load(): Promise<void>;
  /** Draws the pictures from a showcase as the page holds it; true while something is on its way. */
  renderItems(s: ShowcaseView): boolean;
}

export interface ShowcaseState {
  actions: ShowcaseActions;
  /** The showcase's API path, /api/v2/showcases/{id}. */
  base: string;
  showcase: ShowcaseView | null;
  /** Item id -> its card. */
  cards: Record<number, Card>;
  /** Item id -> the rebuild job of a 202, until the item's files switch (its rebuild_job_id goes). */
  pending: Record<number, string>;
  /** The item being dragged (null when none), and whether a new order is being saved: no refresh meanwhile. */
  dragging: number | null;
  ordering: boolean;
  /** A data-key to focus after the next render (the moved card's button, the saved form's summary). */
  focusNext: string | null;
  /** The next poll of the showcase. */
  timer: ReturnType<typeof setTimeout> | undefined;
  /** Whether the picture of the URL's #item-N was scrolled to (once). */
  hashShown: boolean;
  itemsBox: HTMLElement;
  uploads: HTMLElement;
  form: BrandingForm;
  preview: HTMLElement;
}

export const sc = {
  base: '',
  showcase: null,
  cards: {},
  pending: {},
  dragging: null,
  ordering: false,
  focusNext: null,
  timer: undefined,
  hashShown: false,
} as unknown as ShowcaseState;
