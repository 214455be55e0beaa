import { Inject, Injectable } from '@nestjs/common';
import QRCode from 'qrcode';
import {
  defaultVariant,
  ShowcaseItemRepository,
  ShowcaseRepository,
  type ShowcaseItemRow,
  type ShowcaseRow,
  ShowcaseWallRepository,
  type ShowcaseWallRow,
} from '@app/persistence';
import type { GalleryWallResult, StillImageResult } from '@app/plugins';
import type { AppConfig } from '@app/config';
import { UserError } from '@app/pipeline';
import { APP_CONFIG, STORAGE } from '@app/runtime';
import { PublicUrls } from '@app/wire';
import type { StoragePort } from '@app/storage';
import { t, type Locale } from '@app/catalogue';
import { ApiError } from '../../http/api-error';
import { esc } from '../../http/html';
import { type PlacedPicture, placedPictures } from '../../walls/wall-pictures';
import type { StoredWallLayout } from '../../walls/wall-views';
import { VISITOR_ARRANGEMENTS, type VisitorWallPlan, VisitorWalls } from '../../walls/visitor-walls.service';
import { artwork } from '../artwork';
import { tapBase } from '../beacon';
import { askedLocale, pageLocale, withLang, type PageLocale } from '../page-locale';
import { detectPlatform, launchPresentation, type Platform } from '../platform';
import { plainSize } from '../page-locale';
import { sizeLabel } from '../platform';
import { itemPage, wallPage } from './item-page';
import { hasPending, type PageWall, showcasePage, type PageShowcase } from './showcase-page';
import { togetherCsp, togetherErrorPage, togetherPage, type TogetherView } from './together-page';
import { shopSize, variantAvailability, variantName, variantResult } from './page-variants';
import {
  displayTitle,
  frameLabel,
  makesThumbnails,
  outerInches,
  SHARE_FILE,
  THUMB_WIDTHS,
  type PageItem,
  type PageVariant,
  type ReadyItem,
} from './showcase-items';

/** The plain 404 page, in the language the visitor asked for (there is no showcase to take one from). */
export function notFoundHtml(locale: Locale = 'en'): string {
  const text = esc(t(locale, 'page.notFound'));
  return `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><title>${text}</title></head><body>${text}</body></html>`;
}

/**
 * A page as the controller sends it; `beacon`: it sends analytics beacons (its CSP allows them); `csp`: a page
 * with its own Content-Security-Policy (the together and saved wall pages, with model-viewer), else showcaseCsp.
 */
export type Rendered = { status: number; html: string; cache: string; indexable: boolean; beacon: boolean; csp?: string };

/** The model files of a visitor's wall, by the name its routes give them. */
export const TOGETHER_FILES = {
  'model.glb': { file: 'glb', type: 'model/gltf-binary' },
  'model.usdz': { file: 'usdz', type: 'model/vnd.usdz+zip' },
  'poster.jpg': { file: 'poster', type: 'image/jpeg' },
} as const;
export type TogetherFile = keyof typeof TOGETHER_FILES;

/** The together page's query: `items=12,15:SKU,19` (links, the script) or `item=12&item=15` (the form without a script). */
export function togetherItems(items: unknown, item: unknown): unknown {
  if (items !== undefined) return items;
  if (typeof item === 'string') return item;
  if (Array.isArray(item) && item.every((x) => typeof x === 'string')) return item.join(',');
  return undefined;
}

const notFound = (lang?: unknown): Rendered => ({
  status: 404,
  html: notFoundHtml(askedLocale(lang)),
  cache: 'no-store',
  indexable: false,
  beacon: false,
});

/** The public showcase pages (showcase, item, wall) rendered from the stored showcase; a plain 404 page for unknown ids. */
@Injectable()
export class ShowcasePageService {
  constructor(
    private readonly showcases: ShowcaseRepository,
    private readonly showcaseItems: ShowcaseItemRepository,
    private readonly urls: PublicUrls,
    @Inject(STORAGE) private readonly storage: StoragePort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly walls: ShowcaseWallRepository,
    private readonly visitorWalls: VisitorWalls,
  ) {}

  private async find(publicId: string): Promise<{ s: ShowcaseRow; items: ShowcaseItemRow[] } | null> {
    const s = /^shw_[a-z2-7]{24}$/.test(publicId) ? await this.showcases.findByPublicId(publicId) : null;
    return s ? { s, items: await this.showcaseItems.items(s.id) } : null;
  }

  /**
   * The page model: the showcase in the page's language (`loc`), each item with its title, launch links
   * (carrying the visitor's `?lang=`), frame and, for a catalogued work, its label. An edited banner wins
   * over the one the files were built with. An item with variants also has each variant as it shows it.
   * With analytics on (the deployment's ANALYTICS_ENABLED and the showcase's switch) the pages send beacons.
   */
  private model(s: ShowcaseRow, items: ShowcaseItemRow[], loc: PageLocale): PageShowcase {
    const pageUrl = this.urls.showcase(s.publicId);
    const analytics =
      this.config.analytics.enabled && s.analytics
        ? { url: `${this.urls.base}/api/events`, site: s.publicId, taps: tapBase(this.urls.base, s.publicId) }
        : undefined;
    return {
      analytics,
      layout: s.layout,
      logoUrl: s.logoUrl,
      description: s.description,
      links: s.customLinks,
      tagline: s.branding.tagline ?? null,
      primary: s.branding.primary_color ?? null,
      secondary: s.branding.secondary_color ?? null,
      pageUrl,
      indexable: s.indexable,
      loc,
      oembed: `${this.urls.base}/oembed`,
      items: items.map((i, n): PageItem => {
        const stored = i.status === 'completed' ? (i.result as unknown as StillImageResult | null) : null;
        // The repository's result already has the edited banner (and with variants the default's price over it).
        const r = stored && i.banner && !i.variants ? ({ ...stored, banner: i.banner } as StillImageResult) : stored;
        const item = this.pageItem(i, n, r, i.availability, pageUrl, loc);
        const variants = stored && i.variants ? this.pageVariants(i, n, stored, pageUrl, loc) : undefined;
        return variants ? { ...item, variants } : item;
      }),
    };
  }

  /**
   * One item as the pages show it from `r` (its result, or a variant's): title, label, files and links. With
   * `variant`, its links select it (`?variant=`), and its picture is its poster unless its files are the
   * ones the item's thumbnails were made from.
   */
  private pageItem(
    i: ShowcaseItemRow,
    n: number,
    r: StillImageResult | null,
    availability: string,
    pageUrl: string,
    loc: PageLocale,
    variant?: { sku: string; thumbs: boolean },
  ): PageItem {
    const itemUrl = `${pageUrl}/items/${i.id}`;
    const select = (url: string) => (variant ? `${url}?variant=${encodeURIComponent(variant.sku)}` : url);
    const thumbs = !variant || variant.thumbs;
    // A poster too small to enlarge has no thumbnails (the conversion made none): it is shown and shared as it is.
    const made = makesThumbnails(r?.poster_px?.width);
    const presentation = r ? launchPresentation(r) : undefined;
    const banner = presentation?.banner;
    const work = r
      ? artwork({ label: i.label, availability, title: banner?.title ?? i.filename, price: banner?.price, result: r }, loc)
      : undefined;
    // Sold in sizes: the chosen variant's size, stated as every size is (shopSize).
    if (work?.size && r && i.variants) work.size = shopSize(r.dimensions.width_inches, r.dimensions.height_inches, presentation, loc);
    return {
      id: i.id,
      status: i.status,
      progress: i.progress,
      title: i.filename ?? t(loc.locale, 'item.pictureNumber', { n: n + 1 }),
      artwork: work,
      ready:
        r && i.embedId
          ? {
              posterUrl: this.storage.url(r.files.poster.key),
              glbUrl: this.storage.url(r.files.glb.key),
              usdzUrl: this.storage.url(r.files.usdz.key),
              embedUrl: withLang(select(this.urls.embed(i.embedId)), loc.lang),
              widthInches: r.dimensions.width_inches,
              heightInches: r.dimensions.height_inches,
              presentation,
              itemUrl: withLang(select(itemUrl), loc.lang),
              wallUrl: withLang(select(`${itemUrl}/wall`), loc.lang),
              roomUrl: withLang(select(`${itemUrl}/room`), loc.lang),
              thumbs: thumbs && made ? THUMB_WIDTHS.map((w) => ({ url: `${itemUrl}/thumb/${w}.webp`, width: w })) : [],
              avifThumbs: thumbs && made ? THUMB_WIDTHS.map((w) => ({ url: `${itemUrl}/thumb/${w}.avif`, width: w })) : [],
              ...(made ? { shareUrl: `${itemUrl}/thumb/${SHARE_FILE}` } : {}),
              ...(thumbs && r.poster_px ? { posterSize: r.poster_px } : {}),
              frameLabel: frameLabel(r, loc),
            }
          : undefined,
    };
  }

  /** Each variant of a completed item: its name, price, availability, state and, once built, the item as it shows it. */
  private pageVariants(i: ShowcaseItemRow, n: number, result: StillImageResult, pageUrl: string, loc: PageLocale): PageVariant[] {
    const list = i.variants ?? [];
    const def = defaultVariant(list);
    if (!def) return [];
    return list.map((v): PageVariant => {
      const availability = variantAvailability(i.availability, v);
      const state = v.build ? 'ready' : v.pending_job_id || !v.error ? 'building' : 'failed';
      // The thumbnails are made from the item's poster: the default's files when they are the item job's own.
      const thumbs = v.default && v.main && v.build?.job_id === i.jobId;
      const item = v.build
        ? this.pageItem(
            i,
            n,
            variantResult(result as unknown as Record<string, unknown>, v, def) as unknown as StillImageResult,
            availability,
            pageUrl,
            loc,
            {
              sku: v.sku,
              thumbs,
            },
          )
        : undefined;
      return {
        id: v.id,
        sku: v.sku,
        name: variantName(v, v.build, loc),
        default: v.default,
        price: v.price,
        availability,
        state,
        ...(item?.ready ? { item: item as PageItem & { ready: ReadyItem } } : {}),
      };
    });
  }

  /**
   * The showcase's page model in the page's language, with its stored rows, or null for an unknown id: what the
   * room view (room/room.service.ts) draws from.
   */
  async pageModel(publicId: string, lang?: unknown): Promise<{ row: ShowcaseRow; rows: ShowcaseItemRow[]; model: PageShowcase } | null> {
    const found = await this.find(publicId);
    return found
      ? { row: found.s, rows: found.items, model: this.model(found.s, found.items, ShowcasePageService.locale(found.s, lang)) }
      : null;
  }

  static platform(ua: string | undefined, forced: string | undefined): Platform {
    return forced === 'ios' || forced === 'android' || forced === 'desktop' ? forced : detectPlatform(ua);
  }

  /** The page's language: a valid `?lang=` wins, else the showcase's locale; sizes in the showcase's units. */
  private static locale(s: ShowcaseRow, lang: unknown): PageLocale {
    return pageLocale(lang, s.locale, s.units);
  }

  async render(publicId: string, embed: boolean, ua: string | undefined, forced: string | undefined, lang?: unknown): Promise<Rendered> {
    const found = await this.find(publicId);
    if (!found) return notFound(lang);
    const loc = ShowcasePageService.locale(found.s, lang);
    const model = this.model(found.s, found.items, loc);
    const hangable = model.items.filter((i) => i.ready?.presentation?.placement === 'wall').length;
    if (!embed && this.visitorWalls.enabled && hangable >= 2) model.together = { action: `${model.pageUrl}/together` };
    model.walls = (await this.walls.list(found.s.id)).flatMap((w) => this.pageWall(found.s, w));
    const html = showcasePage(model, ShowcasePageService.platform(ua, forced), embed);
    return {
      status: 200,
      html,
      cache: hasPending(found.items) ? 'no-store' : 'public, max-age=60',
      indexable: found.s.indexable && !embed,
      beacon: model.analytics !== undefined,
    };
  }

  /** The item page (`view: 'item'`) or its wall preview; 404 for an item not (yet) converted. */
  async renderItem(
    publicId: string,
    itemId: string,
    view: 'item' | 'wall',
    ua: string | undefined,
    forced: string | undefined,
    lang?: unknown,
    variant?: unknown,
  ): Promise<Rendered> {
    const found = await this.find(publicId);
    if (!found) return notFound(lang);
    const showcase = this.model(found.s, found.items, ShowcasePageService.locale(found.s, lang));
    const index = showcase.items.findIndex((i) => String(i.id) === itemId);
    if (index < 0 || !showcase.items[index]!.ready) return notFound(lang);
    const ctx = {
      showcase,
      index,
      platform: ShowcasePageService.platform(ua, forced),
      variant: typeof variant === 'string' ? variant : undefined,
    };
    return {
      status: 200,
      html: view === 'item' ? itemPage(ctx) : wallPage(ctx),
      cache: 'public, max-age=60',
      indexable: found.s.indexable && view === 'item',
      beacon: showcase.analytics !== undefined,
    };
  }

  /** A built saved wall as its card shows it; none for a wall still building or failed. */
  private pageWall(s: ShowcaseRow, w: ShowcaseWallRow): PageWall[] {
    const r = w.status === 'completed' ? (w.result as unknown as GalleryWallResult | null) : null;
    if (!r?.files?.poster) return [];
    const outer = r.outer_dimensions ?? (w.layout as unknown as StoredWallLayout).outer_dimensions;
    return [
      {
        id: w.publicId,
        name: w.name,
        posterUrl: this.storage.url(r.files.poster.key),
        url: this.urls.showcaseWall(s.publicId, w.publicId),
        widthInches: outer.width_inches,
        heightInches: outer.height_inches,
      },
    ];
  }

  private static readonly ERROR_CACHE = 'no-store';

  /**
   * A visitor's choice seen together (`/together?items=…&arrangement=…`): laid out by VisitorWalls.plan, its
   * model files at the together routes (built on their first request). A choice that cannot be hung together
   * answers a page saying so, 400 or 409, in the showcase's language; 404 for an unknown showcase or where
   * visitors' walls are off.
   */
  async renderTogether(
    publicId: string,
    q: { items: unknown; item: unknown; arrangement: unknown },
    ua: string | undefined,
    forced: string | undefined,
    lang?: unknown,
  ): Promise<Rendered> {
    const found = await this.find(publicId);
    if (!found || !this.visitorWalls.enabled) return notFound(lang);
    const loc = ShowcasePageService.locale(found.s, lang);
    const showcase = this.model(found.s, found.items, loc);
    const platform = ShowcasePageService.platform(ua, forced);
    let plan: VisitorWallPlan;
    try {
      // The items read for the page serve the plan too.
      plan = await this.visitorWalls.plan(found.s, togetherItems(q.items, q.item), q.arrangement, found.items);
    } catch (e) {
      // The layout's own checks (a floor piece, a set wider than 40 ft) are UserErrors: a 400 as the API answers them.
      const status = e instanceof UserError ? 400 : e instanceof ApiError && (e.status === 400 || e.status === 409) ? e.status : null;
      if (!status) throw e;
      return {
        status,
        html: togetherErrorPage(showcase, platform, status),
        cache: ShowcasePageService.ERROR_CACHE,
        indexable: false,
        beacon: false,
        csp: togetherCsp(this.urls.base),
      };
    }
    const arrangement = plan.spec.arrangement;
    const address = (a: string) => withLang(`${this.urls.showcaseTogether(found.s.publicId, plan.items)}&arrangement=${a}`, loc.lang);
    const files = (name: TogetherFile) =>
      `${this.urls.base}/showcase/${found.s.publicId}/together/${name}?items=${encodeURIComponent(plan.items)}&arrangement=${arrangement}`;
    const byId = new Map(showcase.items.map((i) => [i.id, i]));
    const pictures = this.setPictures(placedPictures(plan.arrangement, plan.pictures), byId, loc);
    const first = byId.get(plan.arrangement.items[0]!.item_id)?.ready;
    const pageUrl = address(arrangement);
    return this.together(
      {
        showcase,
        platform,
        heading: t(loc.locale, 'together.heading'),
        pageUrl,
        pictures,
        glbUrl: files('model.glb'),
        usdzUrl: files('model.usdz'),
        iconUrl: first?.thumbs[0]?.url ?? this.storage.url(plan.pictures[0]!.poster_key),
        arrangements: { current: arrangement, links: VISITOR_ARRANGEMENTS.map((name) => ({ name, url: address(name) })) },
        roomUrl: withLang(
          `${this.urls.base}/showcase/${found.s.publicId}/together/room?items=${encodeURIComponent(plan.items)}&arrangement=${arrangement}`,
          loc.lang,
        ),
        qrSvg: '',
        assetBase: this.urls.base,
        data: { items: plan.items, arrangement },
      },
      'public, max-age=60',
    );
  }

  /** A saved wall's page (`/walls/{wall_id}`): its layout and built files; 404 unless it is built. */
  async renderWall(
    publicId: string,
    wallId: string,
    ua: string | undefined,
    forced: string | undefined,
    lang?: unknown,
  ): Promise<Rendered> {
    const found = await this.find(publicId);
    const w = found ? await this.walls.find(found.s.id, wallId) : null;
    const r = w?.status === 'completed' ? (w.result as unknown as GalleryWallResult | null) : null;
    if (!found || !w || !r?.files?.glb) return notFound(lang);
    const loc = ShowcasePageService.locale(found.s, lang);
    const showcase = this.model(found.s, found.items, loc);
    const layout = w.layout as unknown as StoredWallLayout;
    const byId = new Map(showcase.items.map((i) => [i.id, i]));
    const pictures = this.setPictures(layout.items, byId, loc);
    const firstOwn = byId.get(layout.items[0]?.item_id ?? -1)?.ready;
    return this.together(
      {
        showcase,
        platform: ShowcasePageService.platform(ua, forced),
        heading: w.name,
        pageUrl: withLang(this.urls.showcaseWall(found.s.publicId, w.publicId), loc.lang),
        pictures,
        glbUrl: this.storage.url(r.files.glb.key),
        usdzUrl: this.storage.url(r.files.usdz.key),
        iconUrl: firstOwn?.thumbs[0]?.url ?? this.storage.url(r.files.poster.key),
        qrSvg: '',
        assetBase: this.urls.base,
        data: { wall: w.publicId },
      },
      'public, max-age=60',
    );
  }

  /**
   * A set's pictures as its page draws and lists them: each at its place, with its own poster (none for a picture
   * deleted since a saved wall was built: its poster went with it; the wall's model keeps it) and its title.
   */
  private setPictures(places: readonly PlacedPicture[], byId: ReadonlyMap<number, PageItem>, loc: PageLocale): TogetherView['pictures'] {
    return places.map((place, k) => {
      const own = byId.get(place.item_id);
      return {
        itemId: place.item_id,
        posterUrl: own ? this.storage.url(place.poster_key) : null,
        title: (own ? displayTitle(own) : null) ?? place.title ?? t(loc.locale, 'item.pictureNumber', { n: k + 1 }),
        x: place.x_inches,
        y: place.y_inches,
        w: place.width_inches,
        h: place.height_inches,
        size: placeSize(place, own, loc),
      };
    });
  }

  private async together(v: TogetherView, cache: string): Promise<Rendered> {
    const qrSvg = v.platform === 'desktop' ? await QRCode.toString(v.pageUrl, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }) : '';
    return {
      status: 200,
      html: togetherPage({ ...v, qrSvg }),
      cache,
      indexable: false,
      beacon: false,
      csp: togetherCsp(this.urls.base),
    };
  }

  /**
   * A visitor wall's file (`model.glb`, `model.usdz`, `poster.jpg`): the stored one, built first when there is
   * none (VisitorWalls.files: 429 beyond the visitor's builds a minute). ApiErrors (JSON) otherwise: 400/409 for
   * the choice, 404 for an unknown showcase or file.
   */
  async togetherFile(
    publicId: string,
    name: string,
    q: { items: unknown; item: unknown; arrangement: unknown },
    visitor: string,
  ): Promise<{ key: string; type: string }> {
    const spec = Object.hasOwn(TOGETHER_FILES, name) ? TOGETHER_FILES[name as TogetherFile] : undefined;
    const s = spec && /^shw_[a-z2-7]{24}$/.test(publicId) ? await this.showcases.findByPublicId(publicId) : null;
    if (!spec || !s) throw ApiError.notFound('file');
    const plan = await this.visitorWalls.plan(s, togetherItems(q.items, q.item), q.arrangement);
    const files = await this.visitorWalls.files(s, plan, visitor);
    return { key: files[spec.file].key, type: spec.type };
  }

  /** A completed item's poster (storage key), job id and outer size, or null. */
  async poster(publicId: string, itemId: string): Promise<{ jobId: string; posterKey: string; shape: { w: number; h: number } } | null> {
    const found = await this.find(publicId);
    if (!found) return null;
    const item = this.model(found.s, found.items, pageLocale(undefined, found.s.locale, found.s.units)).items.find(
      (i) => String(i.id) === itemId,
    );
    const row = found.items.find((i) => String(i.id) === itemId);
    const r = row?.result as unknown as StillImageResult | undefined;
    return item?.ready && row && r?.files?.poster?.key
      ? { jobId: row.jobId, posterKey: r.files.poster.key, shape: outerInches(item.ready) }
      : null;
  }
}

/**
 * A placed picture's size as its own card states it (the picture's, and its framed size labelled), when the place
 * is that picture's (or its variant's) outer size; else the place's outer size alone.
 */
function placeSize(place: PlacedPicture, own: PageItem | undefined, loc: PageLocale): string {
  const shown = place.variant_sku ? own?.variants?.find((v) => v.sku === place.variant_sku)?.item : own;
  const r = shown?.ready;
  if (r) {
    const o = outerInches(r);
    if (Math.abs(o.w - place.width_inches) < 0.01 && Math.abs(o.h - place.height_inches) < 0.01)
      return sizeLabel(r.widthInches, r.heightInches, r.presentation, loc);
  }
  return plainSize(place.width_inches, place.height_inches, loc);
}
