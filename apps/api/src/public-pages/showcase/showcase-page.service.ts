import { Inject, Injectable } from '@nestjs/common';
import { ShowcaseRepository, type ShowcaseItemRow, type ShowcaseRow } from '@app/persistence';
import type { StillImageResult } from '@app/plugins';
import { STORAGE } from '@app/runtime';
import { PublicUrls } from '@app/wire';
import type { StoragePort } from '@app/storage';
import { t, type Locale } from '@app/catalogue';
import { esc } from '../../http/html';
import { artwork } from '../artwork';
import { askedLocale, pageLocale, withLang, type PageLocale } from '../page-locale';
import { detectPlatform, launchPresentation, type Platform } from '../platform';
import { itemPage, wallPage } from './item-page';
import { hasPending, showcasePage, type PageShowcase } from './showcase-page';
import { frameLabel, outerInches, SHARE_FILE, THUMB_WIDTHS, type PageItem } from './showcase-items';

/** The plain 404 page, in the language the visitor asked for (there is no showcase to take one from). */
export function notFoundHtml(locale: Locale = 'en'): string {
  const text = esc(t(locale, 'page.notFound'));
  return `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><title>${text}</title></head><body>${text}</body></html>`;
}

export type Rendered = { status: number; html: string; cache: string; indexable: boolean };
const notFound = (lang?: unknown): Rendered => ({
  status: 404,
  html: notFoundHtml(askedLocale(lang)),
  cache: 'no-store',
  indexable: false,
});

/** The public showcase pages (showcase, item, wall) rendered from the stored showcase; a plain 404 page for unknown ids. */
@Injectable()
export class ShowcasePageService {
  constructor(
    private readonly showcases: ShowcaseRepository,
    private readonly urls: PublicUrls,
    @Inject(STORAGE) private readonly storage: StoragePort,
  ) {}

  private async find(publicId: string): Promise<{ s: ShowcaseRow; items: ShowcaseItemRow[] } | null> {
    const s = /^shw_[a-z2-7]{24}$/.test(publicId) ? await this.showcases.findByPublicId(publicId) : null;
    return s ? { s, items: await this.showcases.items(s.id) } : null;
  }

  /**
   * The page model: the showcase in the page's language (`loc`), each item with its title, launch links
   * (carrying the visitor's `?lang=`), frame and, for a catalogued work, its label. An edited banner wins
   * over the one the files were built with.
   */
  private model(s: ShowcaseRow, items: ShowcaseItemRow[], loc: PageLocale): PageShowcase {
    const pageUrl = this.urls.showcase(s.publicId);
    return {
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
      items: items.map((i, n): PageItem => {
        const stored = i.status === 'completed' ? (i.result as unknown as StillImageResult | null) : null;
        const r = stored && i.banner ? ({ ...stored, banner: i.banner } as StillImageResult) : stored;
        const itemUrl = `${pageUrl}/items/${i.id}`;
        const presentation = r ? launchPresentation(r) : undefined;
        const banner = presentation?.banner;
        return {
          id: i.id,
          status: i.status,
          progress: i.progress,
          title: i.filename ?? t(loc.locale, 'item.pictureNumber', { n: n + 1 }),
          artwork: r
            ? artwork(
                { label: i.label, availability: i.availability, title: banner?.title ?? i.filename, price: banner?.price, result: r },
                loc,
              )
            : undefined,
          ready:
            r && i.embedId
              ? {
                  posterUrl: this.storage.url(r.files.poster.key),
                  glbUrl: this.storage.url(r.files.glb.key),
                  usdzUrl: this.storage.url(r.files.usdz.key),
                  embedUrl: withLang(this.urls.embed(i.embedId), loc.lang),
                  widthInches: r.dimensions.width_inches,
                  heightInches: r.dimensions.height_inches,
                  presentation,
                  itemUrl: withLang(itemUrl, loc.lang),
                  wallUrl: withLang(`${itemUrl}/wall`, loc.lang),
                  thumbs: THUMB_WIDTHS.map((w) => ({ url: `${itemUrl}/thumb/${w}.webp`, width: w })),
                  avifThumbs: THUMB_WIDTHS.map((w) => ({ url: `${itemUrl}/thumb/${w}.avif`, width: w })),
                  shareUrl: `${itemUrl}/thumb/${SHARE_FILE}`,
                  frameLabel: frameLabel(r, loc),
                }
              : undefined,
        };
      }),
    };
  }

  private static platform(ua: string | undefined, forced: string | undefined): Platform {
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
    const html = showcasePage(this.model(found.s, found.items, loc), ShowcasePageService.platform(ua, forced), embed);
    return {
      status: 200,
      html,
      cache: hasPending(found.items) ? 'no-store' : 'public, max-age=60',
      indexable: found.s.indexable && !embed,
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
  ): Promise<Rendered> {
    const found = await this.find(publicId);
    if (!found) return notFound(lang);
    const showcase = this.model(found.s, found.items, ShowcasePageService.locale(found.s, lang));
    const index = showcase.items.findIndex((i) => String(i.id) === itemId);
    if (index < 0 || !showcase.items[index]!.ready) return notFound(lang);
    const ctx = { showcase, index, platform: ShowcasePageService.platform(ua, forced) };
    return {
      status: 200,
      html: view === 'item' ? itemPage(ctx) : wallPage(ctx),
      cache: 'public, max-age=60',
      indexable: found.s.indexable && view === 'item',
    };
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
