import { esc } from '../../http/html';
import { OEMBED_MAX_URL } from './oembed.schema';

/** A public page of this service that oEmbed answers for, as its address names it. */
export type OwnPage =
  /** `/showcase/{id}` and its embed variant `/showcase/{id}/embed`. */
  | { kind: 'showcase'; showcase: string; lang?: string }
  /** `/showcase/{id}/items/{item}` and its wall preview `…/wall` (the same picture, the same embed). */
  | { kind: 'item'; showcase: string; item: number; variant?: string; lang?: string }
  /** A saved gallery wall, `/showcase/{id}/walls/{wall}`. */
  | { kind: 'wall'; showcase: string; wall: string; lang?: string }
  /** A conversion's embed page, `/embed/{emb}` and `/embed/{emb}/static`. */
  | { kind: 'embed'; embed: string; variant?: string; lang?: string };

const SHOWCASE = 'shw_[a-z2-7]{24}';
/** Item ids are Postgres serials: at most 10 digits (the service checks the range by finding the item or not). */
const ROUTES: readonly [RegExp, (m: RegExpExecArray) => OwnPage][] = [
  [new RegExp(`^/showcase/(${SHOWCASE})(?:/embed)?/?$`), (m) => ({ kind: 'showcase', showcase: m[1]! })],
  [
    new RegExp(`^/showcase/(${SHOWCASE})/items/([1-9][0-9]{0,9})(?:/wall)?/?$`),
    (m) => ({ kind: 'item', showcase: m[1]!, item: Number(m[2]) }),
  ],
  [new RegExp(`^/showcase/(${SHOWCASE})/walls/(wall_[a-z2-7]{24})/?$`), (m) => ({ kind: 'wall', showcase: m[1]!, wall: m[2]! })],
  [/^\/embed\/(emb_[a-z2-7]{24})(?:\/static)?\/?$/, (m) => ({ kind: 'embed', embed: m[1]! })],
];

/** A query value as the pages read it: one short value, else none (`?variant=a&variant=b` picks nothing). */
function single(q: URLSearchParams, name: string, max: number): string | undefined {
  const all = q.getAll(name);
  return all.length === 1 && all[0]!.length > 0 && all[0]!.length <= max ? all[0] : undefined;
}

/**
 * The page `url` names, when it is an address of this service (`base`: PUBLIC_BASE_URL, with any path prefix),
 * else null: another host, another scheme than http(s), credentials, a path no public page has, ids that are
 * not ids. Never throws: the ids are plain ASCII, so a percent-encoded path simply matches no route, and
 * URLSearchParams decodes a malformed escape as U+FFFD rather than failing. `?variant=` (items and embeds) and
 * `?lang=` are kept for the iframe; the scheme may differ from the base's (a link copied as http).
 *
 * @example
 * ownPage('https://ar.example/showcase/shw_…/items/12?variant=A2', 'https://ar.example'); // { kind: 'item', showcase: 'shw_…', item: 12, variant: 'A2' }
 */
export function ownPage(url: string, base: string): OwnPage | null {
  if (url.length > OEMBED_MAX_URL || !URL.canParse(url) || !URL.canParse(base)) return null;
  const u = new URL(url);
  const b = new URL(base);
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.username || u.password) return null;
  // A link copied as http:// names the same page as https://, but only on the scheme's default port.
  if (u.hostname !== b.hostname || (u.protocol === b.protocol ? u.port !== b.port : u.port !== '' || b.port !== '')) return null;
  const prefix = b.pathname.replace(/\/+$/, '');
  if (prefix && !u.pathname.startsWith(`${prefix}/`)) return null;
  const path = u.pathname.slice(prefix.length);
  for (const [re, page] of ROUTES) {
    const m = re.exec(path);
    if (!m) continue;
    const p = page(m);
    const lang = single(u.searchParams, 'lang', 35);
    const variant = p.kind === 'item' || p.kind === 'embed' ? single(u.searchParams, 'variant', 64) : undefined;
    return { ...p, ...(lang ? { lang } : {}), ...(variant ? { variant } : {}) };
  }
  return null;
}

/** The oEmbed address of a page (discovery, oembed.com §4): the endpoint, the page's URL and the format, nothing else. */
export function oembedHref(endpoint: string, pageUrl: string): string {
  return `${endpoint}?url=${encodeURIComponent(pageUrl)}&format=json`;
}

/**
 * The head element that lets consumers (WordPress, Discourse, Iframely…) find the page's oEmbed without
 * knowing this service: `endpoint` is `${PUBLIC_BASE_URL}/oembed`. Escaped: the title is the owner's text.
 */
export function discoveryTag(endpoint: string, pageUrl: string, title: string): string {
  return `<link rel="alternate" type="application/json+oembed" href="${esc(oembedHref(endpoint, pageUrl))}" title="${esc(title)}">`;
}
