import { createHash } from 'node:crypto';
import { framedDimensions, type ArtworkLabel } from '@app/catalogue';
import type { Banner, Placement } from '@app/plugins';
import { DEFAULT_PAGE_LOCALE, framedSize, plainSize, type PageLocale } from './page-locale';

export type Platform = 'ios' | 'android' | 'desktop';

/** The platform an AR launch must target, from the User-Agent (iPadOS 13+ reports as a Mac with touch: the page script corrects that). */
export function detectPlatform(userAgent: string | undefined): Platform {
  const ua = userAgent ?? '';
  if (/iPhone|iPad|iPod/i.test(ua)) return 'ios';
  if (/Android/i.test(ua)) return 'android';
  return 'desktop';
}

/** Scene Viewer shows at most 60 characters of a title (it would cut the rest itself, with an ellipsis). */
export const SCENE_VIEWER_TITLE_MAX = 60;

/** An https URL, normalised, or undefined for anything else (javascript:, http:, garbage). */
export function httpsUrl(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  try {
    const u = new URL(v);
    return u.protocol === 'https:' && !u.username && !u.password ? u.toString() : undefined;
  } catch {
    return undefined;
  }
}

function truncate(s: string, max: number): string {
  const chars = [...s.trim()];
  return chars.length <= max
    ? chars.join('')
    : `${chars
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`;
}

/** `k=v&k=v` with every value percent-encoded (spaces as %20, never `+`: both viewers read %20). */
const query = (pairs: [string, string][]): string => pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');

export interface SceneViewerOptions {
  /** Shown in Scene Viewer's UI; cut to {@link SCENE_VIEWER_TITLE_MAX} characters. */
  title?: string;
  /** Scene Viewer shows a button that opens this page; https only (anything else is left out). */
  link?: string;
  /** `wall` adds `enable_vertical_placement=true` (Scene Viewer then offers walls as well as floors). */
  placement: Placement;
  /** Unless true, `resizable=false`: the model stays at its real size (no pinch scaling). */
  allowScaling: boolean;
}

/**
 * Scene Viewer intent URL (Android): needs an https GLB and a user tap; falls back to the embed page.
 * Parameters (Google's Scene Viewer page): `mode`, `file`, `title`, `link`, `resizable`,
 * `enable_vertical_placement`. Values are percent-encoded, so `&`, `#` or `;` in a title can neither add
 * parameters nor end the intent's `#Intent;...;end;` part. The URL still has to be HTML-escaped where
 * it is written into a page.
 *
 * @example
 * sceneViewerIntent('https://x/model.glb', 'https://x/embed/emb_1', { title: 'Sunset', link: 'https://shop.example/p/1', placement: 'wall', allowScaling: false })
 * // intent://arvr.google.com/scene-viewer/1.2?mode=ar_preferred&file=https%3A%2F%2Fx%2Fmodel.glb&title=Sunset
 * //   &link=https%3A%2F%2Fshop.example%2Fp%2F1&resizable=false&enable_vertical_placement=true#Intent;scheme=https;
 * //   package=com.google.android.googlequicksearchbox;action=android.intent.action.VIEW;S.browser_fallback_url=https%3A%2F%2Fx%2Fembed%2Femb_1;end;
 */
export function sceneViewerIntent(glbUrl: string, fallbackUrl: string, opts: SceneViewerOptions): string {
  const params: [string, string][] = [
    ['mode', 'ar_preferred'],
    ['file', glbUrl],
  ];
  const title = opts.title?.trim() ? truncate(opts.title, SCENE_VIEWER_TITLE_MAX) : undefined;
  if (title) params.push(['title', title]);
  const link = httpsUrl(opts.link);
  if (link) params.push(['link', link]);
  if (!opts.allowScaling) params.push(['resizable', 'false']);
  if (opts.placement === 'wall') params.push(['enable_vertical_placement', 'true']);
  return (
    `intent://arvr.google.com/scene-viewer/1.2?${query(params)}` +
    `#Intent;scheme=https;package=com.google.android.googlequicksearchbox;action=android.intent.action.VIEW;` +
    `S.browser_fallback_url=${encodeURIComponent(fallbackUrl)};end;`
  );
}

export interface QuickLookOptions {
  /** Unless true, `allowsContentScaling=0`: the model stays at its real size (no pinch scaling). */
  allowScaling: boolean;
  banner?: Banner;
}

/**
 * Quick Look link target (iOS): the USDZ plus Apple's AR Quick Look fragment parameters
 * ("Adding an Apple Pay Button or a Custom Action in AR Quick Look"): `allowsContentScaling=0`, and for a
 * banner `checkoutTitle` (our title), `checkoutSubtitle` (subtitle), `callToAction` and `price`. Values are
 * percent-encoded (Apple: the URL cannot contain spaces; `&` and `#` would break the fragment).
 *
 * Apple documents the banner as a button (`callToAction`, or an Apple Pay button we do not use) that
 * `checkoutTitle` / `checkoutSubtitle` / `price` describe: a banner without a `callToAction` is not
 * documented to appear (only a device shows what a given iOS version does with a title alone). Quick Look
 * does not open a link itself: a tap on the banner posts a `message` event with data
 * `_apple_ar_quicklook_button_tapped` to the `<a rel="ar">` element, and the page's
 * {@link QUICK_LOOK_TAP_SCRIPT} opens the link from there.
 *
 * @example
 * quickLookHref('https://x/model.usdz', { allowScaling: false, banner: { title: 'Sunset & Co', call_to_action: 'Buy', price: '$40' } })
 * // https://x/model.usdz#allowsContentScaling=0&checkoutTitle=Sunset%20%26%20Co&callToAction=Buy&price=%2440
 */
export function quickLookHref(usdzUrl: string, opts: QuickLookOptions): string {
  const params: [string, string][] = [];
  if (!opts.allowScaling) params.push(['allowsContentScaling', '0']);
  const b = opts.banner ?? {};
  for (const [key, v] of [
    ['checkoutTitle', b.title],
    ['checkoutSubtitle', b.subtitle],
    ['callToAction', b.call_to_action],
    ['price', b.price],
  ] as const) {
    if (typeof v === 'string' && v.trim()) params.push([key, v.trim()]);
  }
  if (!params.length) return usdzUrl;
  return `${usdzUrl}${usdzUrl.includes('#') ? '&' : '#'}${query(params)}`;
}

/**
 * Opens the banner's link when the Quick Look banner is tapped: Quick Look posts a `message` event
 * (data `_apple_ar_quicklook_button_tapped`) to the `<a rel="ar">` that launched it. The link comes from
 * the anchor's `data-link` (HTML-escaped there), so this script never changes and its hash can stand in
 * the pages' Content-Security-Policy. Top-level pages navigate themselves; inside an iframe it tries the
 * top window (browsers may refuse that without a user gesture) and otherwise navigates the frame.
 */
export const QUICK_LOOK_TAP_SCRIPT = `(function(){var T='_apple_ar_quicklook_button_tapped';
function go(u){if(!/^https:\\/\\//.test(u))return;if(window.top===window.self){window.location.assign(u);return}try{window.top.location.href=u}catch(e){window.location.assign(u)}}
var a=document.querySelectorAll('a[rel="ar"][data-link]');for(var i=0;i<a.length;i++){(function(el){el.addEventListener('message',function(ev){if(ev.data===T)go(el.getAttribute('data-link')||'')},false)})(a[i])}})();`;

/** CSP source expression (`'sha256-…'`) allowing exactly {@link QUICK_LOOK_TAP_SCRIPT}. */
export const QUICK_LOOK_TAP_SCRIPT_HASH = `'sha256-${createHash('sha256').update(QUICK_LOOK_TAP_SCRIPT).digest('base64')}'`;

/** What the launch links and pages need from a job result's presentation fields. */
export interface LaunchPresentation {
  placement: Placement;
  allowScaling: boolean;
  banner: Banner;
  /** The framed object's outer size (and the frame's depth from the wall), when it differs from the picture's (framedDimensions). */
  framed?: { widthInches: number; heightInches: number; depthInches?: number };
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : undefined);

/**
 * The presentation of a stored job result (still image, showcase item, animated AR), or undefined for a
 * result made before these fields existed: those keep the launch links they always had (floor, real
 * size in Quick Look and Scene Viewer, no banner) and the plain desktop preview. Read defensively: the
 * result is JSON from the database. Banner strings are user text: escape them wherever they are written.
 */
export function launchPresentation(result: Record<string, unknown> | null | undefined): LaunchPresentation | undefined {
  if (
    !result ||
    !['placement', 'allow_scaling', 'banner', 'frame', 'outer_dimensions'].some((k) => result[k] !== undefined && result[k] !== null)
  )
    return undefined;
  const b = (result.banner && typeof result.banner === 'object' ? result.banner : {}) as Record<string, unknown>;
  const banner: Banner = {};
  for (const k of ['title', 'subtitle', 'call_to_action', 'price'] as const) {
    const v = str(b[k]);
    if (v) banner[k] = v;
  }
  const link = httpsUrl(b.link_url);
  if (link) banner.link_url = link;
  const p: LaunchPresentation = {
    placement: result.placement === 'floor' ? 'floor' : result.placement === 'wall' ? 'wall' : 'floor',
    allowScaling: result.allow_scaling === true,
    banner,
  };
  const outer = (result.outer_dimensions && typeof result.outer_dimensions === 'object' ? result.outer_dimensions : {}) as Record<
    string,
    unknown
  >;
  const dims = (result.dimensions && typeof result.dimensions === 'object' ? result.dimensions : {}) as Record<string, unknown>;
  const framed = framedDimensions(
    { widthInches: num(dims.width_inches) ?? 0, heightInches: num(dims.height_inches) ?? 0 },
    { widthInches: num(outer.width_inches), heightInches: num(outer.height_inches), depthInches: num(outer.depth_inches) },
  );
  if (framed)
    p.framed = {
      widthInches: framed.widthInches,
      heightInches: framed.heightInches,
      ...(framed.depthInches ? { depthInches: framed.depthInches } : {}),
    };
  return p;
}

/**
 * A plain picture's size in the page's unit (height × width, as every size: page-locale plainSize): "36 × 24 in",
 * or with a frame "36 × 24 in, 40 × 28 × 1 in framed" (size.withFramed). Works with a gallery label state theirs
 * in both units ({@link artwork}), with the same numbers.
 */
export function sizeLabel(
  widthInches: number,
  heightInches: number,
  p?: LaunchPresentation,
  loc: PageLocale = DEFAULT_PAGE_LOCALE,
): string {
  const framed = p?.framed ? plainSize(p.framed.widthInches, p.framed.heightInches, loc, p.framed.depthInches) : undefined;
  return framedSize(plainSize(widthInches, heightInches, loc), framed, loc);
}

/** What a catalogued work's AR launch needs: its label, and its size line when it has a real size. */
export interface LabelledWork {
  label: ArtworkLabel;
  size?: string;
}

/** Whether a work can be bought: available or reserved (a reserved work keeps its price and link, as galleries list it). */
export const forSale = (l: ArtworkLabel): boolean => l.availability.kind === 'available' || l.availability.kind === 'reserved';

/**
 * The AR banner of a catalogued work (Quick Look's checkout fields, Scene Viewer's title and link): the
 * subtitle carries the label (artist and year, the size, the availability when it is not "available",
 * then the banner's own subtitle, joined by " · "); a sold or not-for-sale work has no call to action,
 * price or link. A picture without a label keeps its banner as it is.
 *
 * @example
 * arBanner({ title: 'The Swan', call_to_action: 'Buy', price: '€900', link_url: 'https://x/p' }, { label: soldLabel, size: '150 × 150 cm (59.1 × 59.1 in)' }, 'de')
 * // { title: 'The Swan', subtitle: 'Hilma af Klint, 1915 · 150 × 150 cm (59,1 × 59,1 in) · Verkauft' }
 */
export function arBanner(b: Banner, work: LabelledWork | undefined, locale: PageLocale['locale']): Banner {
  if (!work) return b;
  const l = work.label;
  const out: Banner = { ...b };
  const byline = [l.artist, l.year].filter(Boolean).join(locale === 'ja' ? '、' : ', ');
  const subtitle = [byline, work.size, l.availability.kind === 'available' ? '' : l.availability.text, b.subtitle]
    .filter(Boolean)
    .join(' · ');
  if (subtitle) out.subtitle = subtitle;
  if (!out.title && l.title) out.title = l.title;
  if (!forSale(l)) {
    delete out.call_to_action;
    delete out.price;
    delete out.link_url;
  }
  return out;
}

/** Scene Viewer's one line of text for a catalogued work: its headline ("Artist, Title, year"); else the title. */
export function sceneViewerTitle(title: string | undefined, work: LabelledWork | undefined): string | undefined {
  const headline = work?.label.headline.map((r) => r.text).join('');
  return headline || title;
}
