/** The variants panel's preview: the selected row's picture framed as the engine frames it, drawn on a canvas. */
import type { ItemVariant, ShowcaseItem } from '../../../shared/api-types';
import { $, fill, h } from '../../../shared/dom';
import { toInch, vIndex, vLookChanged, vNum } from './variant-rows';
import { MOULDED, type VariantRow, vs } from './variants-state';
import { lengthText, sizeText } from '../../../shared/size';

/** A row's look in inches (see lookOf). */
interface RowLook {
  w: number;
  h: number;
  style: string;
  fw: number;
  mw: number;
  frameColor: string;
  matColor: string;
  outerW: number;
  outerH: number;
}

function hexOf(c: string): string {
  return vs.COLORS[c] || (/^#[0-9a-f]{6}$/i.test(c || '') ? c : '#888888');
}
/** A colour lighter (k > 1) or darker (k < 1). */
function shade(hex: string, k: number): string {
  const n = parseInt(hex.slice(1), 16);
  const f = function (v: number) {
    return Math.max(0, Math.min(255, Math.round(k >= 1 ? v + (255 - v) * (k - 1) : v * k)));
  };
  return 'rgb(' + f(n >> 16) + ',' + f((n >> 8) & 255) + ',' + f(n & 255) + ')';
}
/** A row's look in inches: the picture, moulding and mat (a float frame's reveal), colours, outer size. */
function lookOf(r: VariantRow): RowLook {
  const ve = vs.ve!;
  // null (no size typed) fails the test below and is replaced.
  let w = toInch(r.width, ve.units) as number;
  let ht = toInch(r.height, ve.units) as number;
  if (!(w > 0 && ht > 0)) {
    const d = ve.item.dimensions;
    w = d ? d.width_inches : 24;
    ht = d ? d.height_inches : 18;
  }
  const moulded = MOULDED.indexOf(r.frame) >= 0;
  const fd = vs.FRAME_LOOK[r.frame] || { width: 0, color: 'white' };
  const fw = moulded ? (r.frame_width !== null ? r.frame_width : fd.width) : 0;
  let mw = moulded ? toInch(r.mat, ve.units) || 0 : 0;
  let mc = r.mat_color || 'white';
  if (r.frame === 'float' && !mw && vs.LOOK.float_reveal) {
    mw = vs.LOOK.float_reveal.width_inches;
    mc = vs.LOOK.float_reveal.color;
  }
  return {
    w: w,
    h: ht,
    style: r.frame,
    fw: fw,
    mw: mw,
    frameColor: r.frame_color || fd.color,
    matColor: mc,
    outerW: w + 2 * (fw + mw),
    outerH: ht + 2 * (fw + mw),
  };
}
function vImg(url: string): { img: HTMLImageElement; ready: boolean } {
  let c = vs.imgs[url];
  if (!c) {
    c = vs.imgs[url] = { img: new Image(), ready: false };
    const entry = c;
    c.img.onload = function () {
      entry.ready = true;
      vDraw();
    };
    c.img.src = url;
  }
  return c;
}
/**
 * The picture to draw: the poster (item's or a built variant's) least cropped from the original, and the
 * rectangle of the picture inside it (posters are framed: the frame and mat around it are left out).
 */
function pictureOf(aspect: number): { img: HTMLImageElement; sx: number; sy: number; sw: number; sh: number } | null {
  const ve = vs.ve!;
  const it = ve.item;
  const cands = ([it] as (ShowcaseItem | ItemVariant)[]).concat(
    (it.variants || []).filter(function (v) {
      return v.status === 'ready';
    }),
  );
  let best = null as ShowcaseItem | ItemVariant | null;
  let bestScore = Infinity;
  cands.forEach(function (c) {
    if (!c.preview_url || !c.dimensions || !c.outer_dimensions) return;
    const a = c.dimensions.width_inches / c.dimensions.height_inches;
    const score = c.fit && c.fit.applied === 'none' ? -1 : Math.abs(Math.log(a / aspect));
    if (score < bestScore) {
      best = c;
      bestScore = score;
    }
  });
  if (!best) return null;
  const im = vImg(best.preview_url!);
  if (!im.ready) return null;
  const W = im.img.naturalWidth;
  const H = im.img.naturalHeight;
  const o = best.outer_dimensions!;
  const d = best.dimensions!;
  let sx = (((o.width_inches - d.width_inches) / 2) * W) / o.width_inches;
  let sy = (((o.height_inches - d.height_inches) / 2) * H) / o.height_inches;
  let sw = W - 2 * sx;
  let sh = H - 2 * sy;
  // Cropped, centred, to the row's shape (as fit "crop" does).
  if (sw / sh > aspect) {
    sx += (sw - sh * aspect) / 2;
    sw = sh * aspect;
  } else {
    sy += (sh - sw / aspect) / 2;
    sh = sw / aspect;
  }
  return { img: im.img, sx: sx, sy: sy, sw: sw, sh: sh };
}

/** Draws the selected row (again): on every change of the table, a picture loaded, a status that changed. */
export function vDraw(): void {
  const ve = vs.ve;
  if (!ve || !ve.el) return;
  const E = ve.el;
  const i = vIndex(ve.selected);
  const r = ve.rows[i];
  const canvas = E.canvas;
  const ctx = canvas.getContext('2d')!;
  const W = canvas.width;
  const H = canvas.height;
  ctx.fillStyle = '#ece8e1';
  ctx.fillRect(0, 0, W, H);
  if (!r) {
    E.title.textContent = 'Preview';
    E.caption.textContent = 'Add a variant to see it framed.';
    canvas.setAttribute('aria-label', 'No variant to preview');
    fill(E.built, []);
    return;
  }
  const L = lookOf(r);
  // To scale with the table's largest variant (sizes compare), but never smaller than 40 % of the room.
  let maxW = L.outerW;
  let maxH = L.outerH;
  ve.rows.forEach(function (x) {
    const l = lookOf(x);
    maxW = Math.max(maxW, l.outerW);
    maxH = Math.max(maxH, l.outerH);
  });
  const roomW = W - 48;
  const roomH = H - 48;
  const s = Math.max(Math.min(roomW / maxW, roomH / maxH), 0.4 * Math.min(roomW / L.outerW, roomH / L.outerH));
  const ow = Math.round(L.outerW * s);
  const oh = Math.round(L.outerH * s);
  const x0 = Math.round((W - ow) / 2);
  const y0 = Math.round((H - oh) / 2);
  const fw = L.fw ? Math.max(2, Math.round(L.fw * s)) : 0;
  const mw = Math.round(L.mw * s);
  ctx.save();
  ctx.shadowColor = 'rgba(0,0,0,.35)';
  ctx.shadowBlur = 12;
  ctx.shadowOffsetX = 3;
  ctx.shadowOffsetY = 5;
  ctx.fillStyle = '#777';
  ctx.fillRect(x0, y0, ow, oh);
  ctx.restore();
  if (fw) {
    // The moulding: four mitred sides lit from the top left; oak and walnut with a grain.
    const base = hexOf(L.frameColor);
    const x1 = x0 + ow;
    const y1 = y0 + oh;
    const sides: [number[], number, boolean][] = [
      [[x0, y0, x1, y0, x1 - fw, y0 + fw, x0 + fw, y0 + fw], 1.22, true],
      [[x1, y0, x1, y1, x1 - fw, y1 - fw, x1 - fw, y0 + fw], 0.82, false],
      [[x1, y1, x0, y1, x0 + fw, y1 - fw, x1 - fw, y1 - fw], 0.72, true],
      [[x0, y1, x0, y0, x0 + fw, y0 + fw, x0 + fw, y1 - fw], 1.1, false],
    ];
    const wood = L.frameColor === 'oak' || L.frameColor === 'walnut';
    sides.forEach(function (sd) {
      const p = sd[0];
      ctx.save();
      ctx.beginPath();
      ctx.moveTo(p[0], p[1]);
      for (let k = 2; k < 8; k += 2) ctx.lineTo(p[k], p[k + 1]);
      ctx.closePath();
      ctx.fillStyle = shade(base, sd[1]);
      ctx.fill();
      if (wood) {
        ctx.clip();
        ctx.strokeStyle = 'rgba(60,30,10,.18)';
        ctx.lineWidth = 1;
        for (let g = 1; g < fw; g += 2 + (g % 3)) {
          ctx.beginPath();
          if (sd[2]) {
            ctx.moveTo(x0, p[1] + (p[1] === y0 ? g : -g));
            ctx.lineTo(x1, p[1] + (p[1] === y0 ? g : -g));
          } else {
            ctx.moveTo(p[0] + (p[0] === x0 ? g : -g), y0);
            ctx.lineTo(p[0] + (p[0] === x0 ? g : -g), y1);
          }
          ctx.stroke();
        }
      }
      ctx.restore();
    });
  }
  const ix = x0 + fw;
  const iy = y0 + fw;
  const iw = ow - 2 * fw;
  const ih = oh - 2 * fw;
  if (mw) {
    ctx.fillStyle = hexOf(L.matColor);
    ctx.fillRect(ix, iy, iw, ih);
  }
  const px = ix + mw;
  const py = iy + mw;
  const pw = iw - 2 * mw;
  const ph = ih - 2 * mw;
  const pic = pictureOf(L.w / L.h);
  if (pic) ctx.drawImage(pic.img, pic.sx, pic.sy, pic.sw, pic.sh, px, py, pw, ph);
  else {
    const grad = ctx.createLinearGradient(px, py, px + pw, py + ph);
    grad.addColorStop(0, '#aeb6c2');
    grad.addColorStop(1, '#6e7781');
    ctx.fillStyle = grad;
    ctx.fillRect(px, py, pw, ph);
  }
  if (fw) {
    // The moulding's shadow on the mat (or picture) below its top and left edges.
    ctx.fillStyle = 'rgba(0,0,0,.18)';
    const sh = Math.max(1, Math.round(fw * 0.25));
    ctx.fillRect(ix, iy, iw, sh);
    ctx.fillRect(ix, iy + sh, sh, ih - sh);
  } else if (L.style === 'canvas') {
    // A gallery wrap: its edge seen at the right and bottom.
    ctx.fillStyle = 'rgba(0,0,0,.22)';
    ctx.fillRect(px + pw - 3, py + 3, 3, ph - 3);
    ctx.fillRect(px + 3, py + ph - 3, pw - 3, 3);
  }
  canvas.setAttribute('data-frame-px', String(fw));
  canvas.setAttribute('data-mat-px', String(mw));
  canvas.setAttribute('data-sku', r.sku.trim());
  // Height × width in the showcase's unit, as the pages will state the variant (shared/size.ts).
  const size = function (a: number, b: number) {
    return sizeText(a, b, ve.units, true);
  };
  const frameText = !r.frame ? 'no frame' : r.frame === 'canvas' ? 'canvas wrap' : r.frame + ' frame (' + L.frameColor + ')';
  const words =
    (r.sku.trim() || 'New variant') +
    ': ' +
    size(L.w, L.h) +
    ', ' +
    frameText +
    (L.mw ? ', ' + lengthText(L.mw, ve.units) + ' ' + L.matColor + (r.frame === 'float' && !vNum(r.mat) ? ' reveal' : ' mat') : '') +
    '. Outer size ' +
    size(L.outerW, L.outerH) +
    '.';
  E.title.textContent = 'Preview of row ' + (i + 1);
  E.caption.textContent = words;
  canvas.setAttribute('aria-label', 'Drawn preview of ' + words);
  // The files as built: the variant's own poster, while the row's size and look are what was saved.
  const was = r.id ? ve.byId[r.id] : null;
  const built = r.build && !vLookChanged(r, was) ? r.build.preview_url : null;
  const cur = $('img', E.built);
  if (built && cur && cur.getAttribute('src') === built) return;
  fill(
    E.built,
    built
      ? h('figure', {}, [
          h('img', { src: built, alt: 'Built preview of ' + (r.sku.trim() || 'the variant'), 'data-testid': 'variant-poster' }),
          h('figcaption', { text: 'As built (its AR files)' }),
        ])
      : h('p', {
          class: 'hint',
          text:
            r.status === 'building'
              ? 'Rebuilding… Its built picture shows here when its files are ready.'
              : r.status === 'failed' && !vLookChanged(r, was)
                ? 'The build failed' + (r.error ? ': ' + r.error.message : '.')
                : 'Not built yet: save to build its files.',
        }),
  );
}
