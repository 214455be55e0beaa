/** A variant as a row of the table and back (the PATCH entry), and the numbers and sizes the table shows. */
import type { ItemVariant, ItemVariantRequest, ShowcaseItem } from '../../../shared/api-types';
import { h } from '../../../shared/dom';
import type { ShowcaseView } from '../showcase-state';
import { MOULDED, V_FRAME, V_KEYS, V_LOOK, type VariantRow, type VariantValues, vs } from './variants-state';

type Units = ShowcaseView['units'];
type FrameLookOf = { width: number; color: string };
type FrameStyle = 'none' | 'thin' | 'classic' | 'float' | 'canvas';

export function variantsBuilding(it: ShowcaseItem): boolean {
  return (it.variants || []).some(function (v) {
    return v.status === 'building';
  });
}
/** The card's line about its variants: how many, how many rebuilding. */
export function variantsLine(it: ShowcaseItem): HTMLParagraphElement | null {
  const list = it.variants || [];
  if (!list.length) return null;
  const b = list.filter(function (v) {
    return v.status === 'building';
  }).length;
  return h('p', {
    class: 'meta',
    'data-testid': 'variants-line',
    text: list.length + (list.length === 1 ? ' variant' : ' variants') + (b ? ' · ' + b + ' rebuilding…' : ''),
  });
}
export function capital(w: string): string {
  return w.charAt(0).toUpperCase() + w.slice(1);
}
export function vNum(v: string | number | null | undefined): number | null {
  const t = String(v === null || v === undefined ? '' : v).trim();
  return t === '' ? null : Number(t);
}
/** A number as an input shows it: two decimals at most. */
export function vStr(n: number | null | undefined): string {
  return n === null || n === undefined || isNaN(n) ? '' : String(Math.round(n * 100) / 100);
}
function vSame(a: string, b: string): boolean {
  const x = vNum(a);
  const y = vNum(b);
  return x === null || y === null || isNaN(x) || isNaN(y) ? String(a).trim() === String(b).trim() : Math.abs(x - y) < 0.005;
}
export function toUnit(inches: number | null | undefined, units: Units): number | null {
  return inches === null || inches === undefined ? null : units === 'cm' ? inches * 2.54 : inches;
}
export function toInch(v: string, units: Units): number | null {
  const n = vNum(v);
  return n === null || isNaN(n) ? null : units === 'cm' ? n / 2.54 : n;
}
export function unitLabel(units: Units): string {
  return units === 'cm' ? 'cm' : 'in';
}

/** A variant of the API as a row: each value as the table's inputs hold it (sizes in the showcase's unit). */
export function vRow(v: Partial<ItemVariant>, it: ShowcaseItem, units: Units): VariantRow {
  const cm = units === 'cm';
  let w: number | null | undefined = null;
  let ht: number | null | undefined = null;
  if (v.width_cm != null) {
    w = cm ? v.width_cm : v.width_cm / 2.54;
    ht = cm ? v.height_cm : v.height_cm! / 2.54;
  } else if (v.width_inches != null) {
    w = toUnit(v.width_inches, units);
    ht = toUnit(v.height_inches, units);
  } else {
    const d = v.dimensions || it.dimensions;
    if (d) {
      w = toUnit(d.width_inches, units);
      ht = toUnit(d.height_inches, units);
    }
  }
  // A frame as sent may be its style alone.
  const vf = v.frame as ItemVariant['frame'] | string | undefined;
  const f: Partial<NonNullable<ItemVariant['frame']>> | null = typeof vf === 'string' ? { style: vf as 'classic' } : vf || null;
  let style: string = f ? f.style || 'classic' : '';
  if (style === 'none') style = '';
  const fd: Partial<FrameLookOf> = vs.FRAME_LOOK[style] || {};
  const m = v.mat || null;
  return {
    key: v.id || 'n' + ++vs.seq,
    id: v.id || null,
    sku: v.sku || '',
    name: v.name || '',
    width: vStr(w),
    height: vStr(ht),
    frame: style,
    frame_color: style && f!.color && f!.color !== fd.color ? f!.color : '',
    frame_width: style && f!.width_inches != null && f!.width_inches !== fd.width ? f!.width_inches! : null,
    mat: style && m && m.width_inches ? vStr(toUnit(m.width_inches, units)) : '',
    mat_color: (style && m && m.color) || 'white',
    price: v.price || '',
    availability: v.availability || 'available',
    default: !!v.default,
    link_url: v.link_url || null,
    call_to_action: v.call_to_action || null,
    status: v.id ? (v.status as string) : 'new',
    build: v.status === 'ready' && v.preview_url ? v : null,
    error: v.error || null,
    errors: {},
  };
}
export function vValues(r: VariantRow): VariantValues {
  const o: Record<string, unknown> = {};
  V_KEYS.forEach(function (k) {
    o[k] = r[k];
  });
  return o as VariantValues;
}
/** Where the row with this key is in the open table (-1: not there). */
export function vIndex(key: string | null): number {
  const ve = vs.ve!;
  for (let i = 0; i < ve.rows.length; i++) if (ve.rows[i].key === key) return i;
  return -1;
}
/** A row's status badge (its variant's status, or New). */
export function vBadge(r: VariantRow): HTMLSpanElement {
  const t = ({ new: 'New', ready: 'Ready', building: 'Rebuilding…', failed: 'Failed' } as Record<string, string>)[r.status] || r.status;
  return h('span', {
    class: 'badge v-' + r.status,
    'data-status-of': r.key,
    'data-testid': r.status === 'building' ? 'variant-rebuilding' : 'variant-status',
    title: r.error ? r.error.message : null,
    text: t,
  });
}
export function vSnap(): string {
  return JSON.stringify(vs.ve!.rows.map(vValues));
}
export function vDirty(): boolean {
  return !!vs.ve && vSnap() !== vs.ve.snapshot;
}
export function vLookChanged(r: VariantRow, was: VariantValues | null | undefined): boolean {
  return (
    !was ||
    V_LOOK.some(function (k) {
      return /^(width|height|mat)$/.test(k) ? !vSame(r[k] as string, was[k] as string) : r[k] !== was[k];
    })
  );
}

/** One entry of the PATCH: the SKU and shop fields always; size and look when new or changed (else it is not rebuilt). */
export function vEntry(r: VariantRow): ItemVariantRequest {
  const units = vs.ve!.units;
  // Sizes go as width_cm or width_inches (the showcase's unit).
  const e: ItemVariantRequest & Record<string, unknown> = { sku: r.sku.trim(), name: r.name.trim() || null };
  const u = units === 'cm' ? '_cm' : '_inches';
  // The API matches a row to a variant by SKU: compared with that variant as loaded.
  const was = vs.ve!.bySku[e.sku];
  if (!was || !vSame(r.width, was.width) || !vSame(r.height, was.height)) {
    if (r.width.trim() !== '' || r.height.trim() !== '') {
      e['width' + u] = vNum(r.width);
      e['height' + u] = vNum(r.height);
    }
  }
  // Frame and mat go together: a mat needs a moulding, and a float frame's reveal is its mat.
  const look =
    !was ||
    V_FRAME.some(function (k) {
      return k === 'mat' ? !vSame(r.mat, was.mat) : r[k] !== was[k];
    });
  if (look) {
    let frame: ItemVariantRequest['frame'] = null;
    if (r.frame) {
      const fr: Exclude<ItemVariantRequest['frame'], string | null | undefined> = { style: r.frame as FrameStyle };
      frame = fr;
      if (r.frame_color && r.frame !== 'canvas') fr.color = r.frame_color;
      if (r.frame_width !== null) fr.width_inches = r.frame_width;
      if (Object.keys(fr).length === 1) frame = r.frame as FrameStyle;
    }
    e.frame = frame;
    const mat = MOULDED.indexOf(r.frame) >= 0 ? toInch(r.mat, units) : null;
    e.mat = mat ? { width_inches: Math.round(mat * 1000) / 1000, color: r.mat_color || 'white' } : null;
  }
  e.price = r.price.trim() || null;
  e.availability = r.availability as ItemVariantRequest['availability'];
  e.default = r.default;
  if (r.link_url) e.link_url = r.link_url;
  if (r.call_to_action) e.call_to_action = r.call_to_action;
  return e;
}
