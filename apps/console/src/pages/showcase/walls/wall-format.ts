/** Sizes as the walls section writes them, and the pictures it names (from the showcase as last loaded). */
import type { ErrorLike } from '../../../shared/api';
import type { ShowcaseItem, WallItem, WallPlace } from '../../../shared/api-types';
import { sizeText } from '../../../shared/size';
import { type Pic, W } from './wall-state';

/** A picture of a wall as the API places it (outer centre and size, inches) as the arranger holds it. */
export function wallPic(x: WallItem | WallPlace): Pic {
  return {
    item_id: x.item_id,
    variant_sku: x.variant_sku || null,
    x: x.x_inches,
    y: x.y_inches,
    w: x.width_inches,
    h: x.height_inches,
  };
}

// Inches as the console shows them: at most two decimals, a true minus sign.
export function inch(v: number): string {
  const r = Math.round(v * 100) / 100;
  return (r < 0 ? '−' : '') + String(Math.abs(r));
}
export function snap(v: number): number {
  return Math.round(v * 2) / 2;
}
/** A wall's or a picture's size as every page states it (shared/size.ts), the showcase's unit first: "33 × 84 in (83.8 × 213.4 cm)". */
export function wallSize(w: number, hgt: number, oneUnit = false): string {
  return sizeText(w, hgt, (W.showcase && W.showcase.units) || 'in', oneUnit);
}
export function byId(itemId: number): ShowcaseItem | undefined {
  return ((W.showcase && W.showcase.items) || []).filter(function (x) {
    return x.id === itemId;
  })[0];
}
export function pictureName(itemId: number): string {
  const it = byId(itemId);
  return it ? W.itemName(it) : 'Picture ' + itemId;
}
export function thumbOf(itemId: number, sku: string | null | undefined): string | null {
  const it = byId(itemId);
  if (!it) return null;
  const v = sku
    ? (it.variants || []).filter(function (x) {
        return x.sku === sku;
      })[0]
    : null;
  return (v && v.preview_url) || it.preview_url || null;
}
export function errMessage(e: ErrorLike): string {
  const er = (e && e.error) || {};
  return (er.message || 'Something went wrong.') + (er.param ? ' (' + er.param + ')' : '');
}
