import { Inject, Injectable } from '@nestjs/common';
import { t } from '@app/catalogue';
import type { AppConfig } from '@app/config';
import {
  defaultVariant,
  JobRepository,
  ShowcaseItemRepository,
  type ShowcaseItemRow,
  ShowcaseRepository,
  type ShowcaseRow,
  ShowcaseWallRepository,
} from '@app/persistence';
import { makesThumbnails, SHARE_FILE, THUMB_FILES, THUMB_WIDTHS, thumbHeight } from '@app/plugins';
import { APP_CONFIG } from '@app/runtime';
import { parseInput } from '@app/schema';
import { PublicUrls } from '@app/wire';
import { ApiError } from '../../http/api-error';
import { pageLocale, withLang, type PageLocale } from '../page-locale';
import { launchPresentation } from '../platform';
import { variantResult } from '../showcase/page-variants';
import { fittingThumbnail, iframeHtml, type MaxBox, pictureFrame, SHOWCASE_FRAME, fitWithin, type Thumbnail } from './oembed-frame';
import { type OwnPage, ownPage } from './oembed-url';
import { OembedQuery } from './oembed.schema';

/** The suggested cache lifetime of an answer (oembed.com `cache_age`): titles and sizes change seldom; the iframe's page is always live. */
export const OEMBED_CACHE_AGE_S = 3600;

/** An oEmbed answer of type `rich` (oembed.com §2.3.4.4) with the optional fields this service knows. */
export interface OembedResponse {
  version: '1.0';
  type: 'rich';
  provider_name: string;
  provider_url: string;
  title: string;
  author_name?: string;
  html: string;
  width: number;
  height: number;
  thumbnail_url?: string;
  thumbnail_width?: number;
  thumbnail_height?: number;
  cache_age: number;
}

/** What one page resolves to: the iframe's page, its shape and the texts around it. */
interface Embeddable {
  src: string;
  /** The picture's outer shape in inches (frame included); none for a showcase (a gallery page). */
  shape?: { w: number; h: number };
  title: string;
  author?: string;
  thumbnails: Thumbnail[];
}

type Result = Record<string, unknown>;

/** A result's outer shape: the framed size where there is a frame, else the picture's. */
function outerShape(r: Result): { w: number; h: number } | undefined {
  const framed = launchPresentation(r)?.framed;
  if (framed) return { w: framed.widthInches, h: framed.heightInches };
  const d = r.dimensions as { width_inches?: unknown; height_inches?: unknown } | undefined;
  return typeof d?.width_inches === 'number' && typeof d.height_inches === 'number' ? { w: d.width_inches, h: d.height_inches } : undefined;
}

const nonEmpty = (s: string | null | undefined): string | undefined => (s?.trim() ? s.trim() : undefined);

/**
 * oEmbed for this service's own public pages (oembed.com): a showcase, item, wall or embed page's URL becomes an
 * iframe of its embed page sized within the consumer's box. Public and keyless like the pages themselves; the
 * ids are unguessable, so there is nothing private to answer 401 for. Anything that is not a page of ours with
 * something to show (another host, a typo, a picture still converting or failed, a deleted one) is 404.
 */
@Injectable()
export class OembedService {
  private readonly endpointHost: string;

  constructor(
    private readonly showcases: ShowcaseRepository,
    private readonly showcaseItems: ShowcaseItemRepository,
    private readonly walls: ShowcaseWallRepository,
    private readonly jobs: JobRepository,
    private readonly urls: PublicUrls,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.endpointHost = new URL(config.publicBaseUrl).host;
  }

  async answer(query: unknown): Promise<OembedResponse> {
    const q = parseInput(OembedQuery, query ?? {});
    if (q.format !== undefined && q.format !== 'json')
      throw new ApiError(501, 'invalid_request_error', 'format_not_supported', 'format: only json is supported', 'format');
    const page = ownPage(q.url, this.config.publicBaseUrl);
    const found = page ? await this.resolve(page) : null;
    if (!found) throw ApiError.notFound('url: no embeddable page at this address; page');
    return this.response(found, q);
  }

  private response(e: Embeddable, max: MaxBox): OembedResponse {
    const size = e.shape ? pictureFrame(e.shape.w, e.shape.h, max) : fitWithin(SHOWCASE_FRAME, max);
    const thumb = fittingThumbnail(e.thumbnails, max);
    return {
      version: '1.0',
      type: 'rich',
      provider_name: this.endpointHost,
      provider_url: `${this.urls.base}/`,
      title: e.title,
      ...(e.author ? { author_name: e.author } : {}),
      html: iframeHtml(e.src, size, e.title),
      width: size.width,
      height: size.height,
      ...(thumb ? { thumbnail_url: thumb.url, thumbnail_width: thumb.width, thumbnail_height: thumb.height } : {}),
      cache_age: OEMBED_CACHE_AGE_S,
    };
  }

  private async resolve(p: OwnPage): Promise<Embeddable | null> {
    if (p.kind === 'embed') return this.embed(p.embed, p.variant, p.lang);
    const s = await this.showcases.findByPublicId(p.showcase);
    if (!s) return null;
    const loc = pageLocale(p.lang, s.locale, s.units);
    if (p.kind === 'showcase') return this.showcase(s, loc);
    if (p.kind === 'wall') return this.wall(s, p.wall, loc);
    const items = await this.showcaseItems.items(s.id);
    const index = items.findIndex((i) => i.id === p.item);
    return index < 0 ? null : this.item(s, items[index]!, index, loc, p.variant);
  }

  /** A showcase: its embed variant, titled as its page; the thumbnail is its first ready picture's. */
  private async showcase(s: ShowcaseRow, loc: PageLocale): Promise<Embeddable> {
    const items = await this.showcaseItems.items(s.id);
    const first = items.find((i) => i.status === 'completed' && i.result && i.embedId);
    const shape = first?.result ? outerShape(first.result) : undefined;
    return {
      src: withLang(this.urls.showcaseEmbed(s.publicId), loc.lang),
      title: nonEmpty(s.branding.tagline) ?? t(loc.locale, 'page.showcaseTitle'),
      thumbnails: first && shape ? this.thumbnails(s, first, shape) : [],
    };
  }

  /**
   * A picture: its embed page (with `?variant=` when the URL named one of its built variants: an unknown SKU
   * shows the default, as the pages do), its title as the pages show it and its artist; null until it is built.
   */
  private item(s: ShowcaseRow, i: ShowcaseItemRow, index: number, loc: PageLocale, sku?: string): Embeddable | null {
    if (i.status !== 'completed' || !i.result || !i.embedId) return null;
    const def = i.variants ? defaultVariant(i.variants) : undefined;
    const asked = sku && def ? i.variants!.find((v) => v.sku === sku && v.build) : undefined;
    const shown = asked && def && asked !== def ? variantResult(i.result, asked, def) : i.result;
    const shape = outerShape(shown);
    if (!shape) return null;
    const src = asked ? `${this.urls.embed(i.embedId)}?variant=${encodeURIComponent(asked.sku)}` : this.urls.embed(i.embedId);
    return {
      src: withLang(src, loc.lang),
      shape,
      title: launchPresentation(shown)?.banner.title ?? nonEmpty(i.filename) ?? t(loc.locale, 'item.pictureNumber', { n: index + 1 }),
      author: nonEmpty(i.label.artist),
      // The thumbnails are made from the item's own (default) poster: another variant's picture has none.
      thumbnails: asked && asked !== def ? [] : this.thumbnails(s, i, outerShape(i.result) ?? shape),
    };
  }

  /** A saved wall once built: its embed page, named as the owner named it. */
  private async wall(s: ShowcaseRow, wallId: string, loc: PageLocale): Promise<Embeddable | null> {
    const w = await this.walls.find(s.id, wallId);
    const shape = w?.status === 'completed' && w.result ? outerShape(w.result) : undefined;
    if (!w || !shape) return null;
    return {
      src: withLang(this.urls.embed(w.embedId), loc.lang),
      shape,
      title: nonEmpty(w.name) ?? t(loc.locale, 'page.showcaseTitle'),
      thumbnails: [],
    };
  }

  /**
   * An embed page: a showcase picture's is answered as its item (title, artist, thumbnails) with this page in
   * the iframe; any other finished conversion (v1, animated AR, a wall's build) by its own result.
   */
  private async embed(publicId: string, sku: string | undefined, lang: string | undefined): Promise<Embeddable | null> {
    const job = await this.jobs.findByPublicId(publicId);
    if (!job || job.status !== 'completed' || !job.result) return null;
    const ref = job.kind === 'v2.picture' && job.ownerId ? await this.showcaseItems.itemForJob(job.id) : null;
    const s = ref && job.ownerId ? await this.showcases.findForOwner(ref.showcaseId, job.ownerId) : null;
    if (s && ref) {
      const items = await this.showcaseItems.items(s.id);
      const index = items.findIndex((i) => i.id === ref.id);
      return index < 0 ? null : this.item(s, items[index]!, index, pageLocale(lang, s.locale, s.units), sku);
    }
    const loc = pageLocale(lang, 'en');
    const result = job.result as Result;
    const shape = outerShape(result);
    if (!shape) return null;
    return {
      src: withLang(this.urls.embed(publicId), loc.lang),
      shape,
      title: launchPresentation(result)?.banner.title ?? t(loc.locale, 'item.picture'),
      thumbnails: [],
    };
  }

  /** A picture's thumbnail files (made on first request: ShowcaseThumbnails), with their exact sizes. */
  private thumbnails(s: ShowcaseRow, i: ShowcaseItemRow, shape: { w: number; h: number }): Thumbnail[] {
    // A poster too small to enlarge has none (the pages show the poster itself).
    if (!makesThumbnails((i.result?.poster_px as { width?: number } | undefined)?.width)) return [];
    const base = `${this.urls.showcase(s.publicId)}/items/${i.id}/thumb`;
    const files = [SHARE_FILE, ...THUMB_WIDTHS.map((w) => `${w}.webp`)];
    return files.map((file) => {
      const width = THUMB_FILES[file]!.width;
      return { url: `${base}/${file}`, width, height: thumbHeight(width, shape.w, shape.h) };
    });
  }
}
