import { t } from '@app/catalogue';
import { esc } from '../../http/html';
import { DEFAULT_PAGE_LOCALE, num, plainSize, type PageLocale } from '../page-locale';

/**
 * "See it on a wall": the picture hung on a plain wall next to an object everyone knows the size of,
 * drawn as SVG in inches (the viewBox unit), so every shape is at true scale relative to the others. The
 * picture is the item's poster (it shows the frame, when there is one). Nothing external: the shapes are
 * drawn here, the only image is our own poster.
 */

export interface WallReference {
  kind: 'sofa' | 'person';
  /** The measured dimension and its length in inches (what the page states). */
  dimension: 'width' | 'height';
  inches: number;
  label: string;
}

/** A three-seat sofa: 84 in wide, back 33 in high (a common size). */
export const SOFA: WallReference = { kind: 'sofa', dimension: 'width', inches: 84, label: 'a sofa 84 in (213 cm) wide' };
/** A person 5 ft 7 in (170 cm) tall: about the average adult. */
export const PERSON: WallReference = { kind: 'person', dimension: 'height', inches: 67, label: 'a person 5 ft 7 in (170 cm) tall' };

const SOFA_HEIGHT = 33;
/** Galleries hang a picture's centre at 57 in (eye level). */
const EYE_LEVEL = 57;

/** A sofa fits under pictures that are not too tall or too wide for a living-room wall; else a person stands beside. */
export function referenceFor(w: number, h: number, placement: 'wall' | 'floor'): WallReference {
  return placement === 'wall' && h <= 44 && w <= 110 ? SOFA : PERSON;
}

export interface WallScene {
  svg: string;
  reference: WallReference;
  /** The reference in the page's language and units: "a sofa 84 in (213 cm) wide", "ein Sofa, 213 cm (84 in) breit". */
  referenceLabel: string;
}

/**
 * The reference object in words, its size in both units, the page's first (whole centimetres; the person's
 * height in feet and inches, as people state it): "a person 5 ft 7 in (170 cm) tall".
 */
export function referenceLabel(ref: WallReference, loc: PageLocale = DEFAULT_PAGE_LOCALE): string {
  const cm = `${num(loc.locale, Math.round(ref.inches * 2.54), 0)} cm`;
  const inches =
    ref.kind === 'person'
      ? `${num(loc.locale, Math.floor(ref.inches / 12), 0)} ft ${num(loc.locale, ref.inches % 12, 0)} in`
      : `${num(loc.locale, ref.inches, 0)} in`;
  const size = loc.units === 'cm' ? `${cm} (${inches})` : `${inches} (${cm})`;
  return t(loc.locale, ref.kind === 'sofa' ? 'wall.referenceSofa' : 'wall.referencePerson', { size });
}

function sofa(x: number, floor: number): string {
  const w = SOFA.inches;
  const y = floor - SOFA_HEIGHT;
  // Every shape stays within x..x+84 and floor-33..floor: the group's box is the sofa's true size.
  return (
    `<g id="wall-reference" data-kind="sofa" data-dimension="width" data-inches="${w}" fill="#7d8a99">` +
    `<rect x="${x + 3}" y="${y}" width="${w - 6}" height="18" rx="4"/>` +
    `<rect x="${x}" y="${y + 10}" width="9" height="19" rx="3" fill="#6f7b89"/>` +
    `<rect x="${x + w - 9}" y="${y + 10}" width="9" height="19" rx="3" fill="#6f7b89"/>` +
    `<rect x="${x + 7}" y="${y + 16}" width="${w - 14}" height="11" rx="3" fill="#8c99a8"/>` +
    `<rect x="${x + 2}" y="${y + 26}" width="${w - 4}" height="3" fill="#5d6875"/>` +
    `<rect x="${x + 6}" y="${floor - 4}" width="2" height="4" fill="#3b342c"/>` +
    `<rect x="${x + w - 8}" y="${floor - 4}" width="2" height="4" fill="#3b342c"/></g>`
  );
}

function person(x: number, floor: number): string {
  const h = PERSON.inches;
  const top = floor - h;
  // A simple standing figure, 67 in from the top of the head to the floor, about 18 in across the shoulders.
  return (
    `<g id="wall-reference" data-kind="person" data-dimension="height" data-inches="${h}" fill="#6b7785">` +
    `<circle cx="${x + 9}" cy="${top + 4.5}" r="4.5"/>` +
    `<rect x="${x}" y="${top + 10}" width="18" height="25" rx="5"/>` +
    `<rect x="${x + 2.5}" y="${top + 31}" width="6" height="${h - 31}" rx="2.5"/>` +
    `<rect x="${x + 9.5}" y="${top + 31}" width="6" height="${h - 31}" rx="2.5"/></g>`
  );
}

const round2 = (v: number) => Math.round(v * 100) / 100;
const FLOOR_DEPTH = 10;

/** Where a subject `w` x `h` in (a picture, or a set hung together) and the reference stand in the room, inches. */
interface Room {
  /** The whole scene's width and the wall's height (the floor strip is below it). */
  width: number;
  wallHeight: number;
  /** The subject's left edge and top edge. */
  x: number;
  top: number;
  /** The reference object's left edge. */
  refX: number;
}

/**
 * The room around a subject: wall pictures hang with their centre at eye level, at least 8 in above a sofa's
 * back (centred over it), or beside a person; floor pieces stand on the floor. Wall to either side, so the
 * scene reads as a room rather than a close-up.
 */
function roomFor(w: number, h: number, ref: WallReference, placement: 'wall' | 'floor'): Room {
  const margin = 42;
  let x: number;
  let refX: number;
  let width: number;
  let bottom: number;
  if (ref.kind === 'sofa') {
    width = Math.max(SOFA.inches, w) + 2 * margin;
    x = (width - w) / 2;
    refX = (width - SOFA.inches) / 2;
    bottom = Math.max(EYE_LEVEL - h / 2, SOFA_HEIGHT + 8);
  } else {
    refX = margin;
    x = margin + 18 + 24;
    width = x + w + margin;
    bottom = placement === 'floor' ? 0 : Math.max(EYE_LEVEL - h / 2, 6);
  }
  const wallHeight = Math.max(96, bottom + h + 14);
  return { width, wallHeight, x, top: wallHeight - bottom - h, refX };
}

/** The room's SVG: wall, floor and skirting, the subject's shapes, the reference object; `label` its text alternative. */
function roomSvg(room: Room, label: string, subject: string, ref: WallReference): string {
  const n = round2;
  const floor = room.wallHeight;
  return (
    `<svg class="wall-scene" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${n(room.width)} ${n(room.wallHeight + FLOOR_DEPTH)}" role="img" aria-label="${esc(label)}" preserveAspectRatio="xMidYMid meet">` +
    `<rect width="${n(room.width)}" height="${n(room.wallHeight)}" fill="#ebe6de"/>` +
    `<rect y="${n(floor)}" width="${n(room.width)}" height="${FLOOR_DEPTH}" fill="#c9b497"/>` +
    `<rect y="${n(floor - 4)}" width="${n(room.width)}" height="4" fill="#f7f5f1"/>` +
    subject +
    (ref.kind === 'sofa' ? sofa(n(room.refX), n(floor)) : person(n(room.refX), n(floor))) +
    '</svg>'
  );
}

/**
 * The scene for a picture of `w` x `h` inches (outer size). Wall pictures hang with their centre at eye
 * level, at least 8 in above a sofa's back; floor pieces stand on the floor.
 */
export function wallScene(
  posterUrl: string,
  alt: string,
  w: number,
  h: number,
  placement: 'wall' | 'floor',
  loc: PageLocale = DEFAULT_PAGE_LOCALE,
  /** The size as the page states it (a catalogued work's label size); else the plain size (height × width, plainSize). */
  sizeText?: string,
): WallScene {
  const ref = referenceFor(w, h, placement);
  const refLabel = referenceLabel(ref, loc);
  const sceneLabel = t(loc.locale, 'wall.sceneLabel', { title: alt, size: sizeText ?? plainSize(w, h, loc), reference: refLabel });
  const room = roomFor(w, h, ref, placement);
  const n = round2;
  const picY = room.top;
  const svg = roomSvg(
    room,
    sceneLabel,
    `<rect x="${n(room.x + 0.6)}" y="${n(picY + 1.2)}" width="${n(w)}" height="${n(h)}" fill="#000" opacity=".18"/>` +
      `<image id="wall-picture" data-width-inches="${w}" data-height-inches="${h}" href="${esc(posterUrl)}" x="${n(room.x)}" y="${n(picY)}" width="${n(w)}" height="${n(h)}" preserveAspectRatio="none"/>`,
    ref,
  );
  return { svg, reference: ref, referenceLabel: refLabel };
}

/** One picture of a set hung together: its poster, title, outer centre (inches, y up, relative to the set) and outer size. */
export interface GroupPicture {
  itemId: number;
  posterUrl: string | null;
  title: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * Several pictures hung together (a gallery wall, docs/gallery-walls.md) on the same plain wall as
 * {@link wallScene}: each picture's own poster at its place and outer size in the same inches viewBox, the set
 * centred at eye level (at least 8 in above the sofa's back), next to a sofa when the whole set fits above one,
 * else a person. A picture whose poster is gone (deleted since a saved wall was built) is a plain panel.
 * `sceneLabel`: the scene's text alternative (the titles, the size and the reference).
 */
export function groupScene(
  pictures: readonly GroupPicture[],
  loc: PageLocale = DEFAULT_PAGE_LOCALE,
  sceneLabel: (refLabel: string, size: string) => string,
): WallScene & { width: number; height: number } {
  const left = Math.min(...pictures.map((p) => p.x - p.w / 2));
  const right = Math.max(...pictures.map((p) => p.x + p.w / 2));
  const top = Math.max(...pictures.map((p) => p.y + p.h / 2));
  const low = Math.min(...pictures.map((p) => p.y - p.h / 2));
  const w = right - left;
  const h = top - low;
  const ref = referenceFor(w, h, 'wall');
  const refLabel = referenceLabel(ref, loc);
  const room = roomFor(w, h, ref, 'wall');
  const setX = room.x;
  const setTop = room.top;
  const n = round2;
  const shapes = pictures
    .map((p) => {
      const x = setX + (p.x - p.w / 2 - left);
      const y = setTop + (top - (p.y + p.h / 2));
      const shadow = `<rect x="${n(x + 0.6)}" y="${n(y + 1.2)}" width="${n(p.w)}" height="${n(p.h)}" fill="#000" opacity=".18"/>`;
      const data = `class="wall-picture" data-item="${p.itemId}" data-x-inches="${p.x}" data-y-inches="${p.y}" data-width-inches="${p.w}" data-height-inches="${p.h}" x="${n(x)}" y="${n(y)}" width="${n(p.w)}" height="${n(p.h)}"`;
      const shape = p.posterUrl
        ? `<image ${data} href="${esc(p.posterUrl)}" preserveAspectRatio="none"><title>${esc(p.title)}</title></image>`
        : `<rect ${data} fill="#d6d0c6" stroke="#b9b1a5" stroke-width=".5"><title>${esc(p.title)}</title></rect>`;
      return shadow + shape;
    })
    .join('');
  const label = sceneLabel(refLabel, plainSize(n(w), n(h), loc));
  const svg = roomSvg(
    room,
    label,
    `<g id="wall-set" data-width-inches="${n(w)}" data-height-inches="${n(h)}" data-x="${n(setX)}" data-y="${n(setTop)}">${shapes}</g>`,
    ref,
  );
  return { svg, reference: ref, referenceLabel: refLabel, width: w, height: h };
}
