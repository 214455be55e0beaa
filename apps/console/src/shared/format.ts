/** Values as the console writes them, and the few job facts every page shares. */
import { h } from './dom';

export function when(iso: string | null | undefined): string {
  return iso ? new Date(iso).toLocaleString() : '—';
}
export function credits(n: number): string {
  return (Math.round(n * 100) / 100).toFixed(2);
}

/** A job or picture still on its way: only a status named here (v2 steps, v1 `processing`), never an unknown one. */
const ACTIVE = ['queued', 'downloading', 'converting', 'uploading', 'processing'];
export function active(s: string): boolean {
  return ACTIVE.indexOf(s) >= 0;
}
/** An id as one URL path segment: every id that goes into a path goes through this. */
export function seg(id: string | number): string {
  return encodeURIComponent(String(id));
}
/** A v2 job's steps in order (the job page's timeline). */
export const STEPS = ['queued', 'downloading', 'converting', 'uploading', 'completed'];

export function statusBadge(s: string): HTMLSpanElement {
  return h('span', { class: 'badge s-' + s, text: s });
}
export function jobLink(id: string): HTMLAnchorElement {
  return h('a', { href: '/console/jobs/' + seg(id), text: id });
}
