import { Inject, Injectable } from '@nestjs/common';
import { ShowcaseRepository, type ShowcaseItemRow, type ShowcaseRow } from '@app/persistence';
import type { StillImageResult } from '@app/plugins';
import { STORAGE } from '@app/runtime';
import { PublicUrls } from '@app/wire';
import type { StoragePort } from '@app/storage';
import { detectPlatform, launchPresentation, type Platform } from '../platform';
import { itemPage, wallPage } from './item-page';
import { hasPending, showcasePage, type PageShowcase } from './showcase-page';
import { frameLabel, outerInches, SHARE_FILE, THUMB_WIDTHS, type PageItem } from './showcase-items';

const NOT_FOUND = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not found</title></head><body>Not found</body></html>';

export type Rendered = { status: number; html: string; cache: string; indexable: boolean };
const notFound = (): Rendered => ({ status: 404, html: NOT_FOUND, cache: 'no-store', indexable: false });

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

  private model(s: ShowcaseRow, items: ShowcaseItemRow[]): PageShowcase {
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
      items: items.map((i, n): PageItem => {
        const r = i.status === 'completed' ? (i.result as unknown as StillImageResult | null) : null;
        const itemUrl = `${pageUrl}/items/${i.id}`;
        return {
          id: i.id,
          status: i.status,
          progress: i.progress,
          title: i.filename ?? `Picture ${n + 1}`,
          ready:
            r && i.embedId
              ? {
                  posterUrl: this.storage.url(r.files.poster.key),
                  glbUrl: this.storage.url(r.files.glb.key),
                  usdzUrl: this.storage.url(r.files.usdz.key),
                  embedUrl: this.urls.embed(i.embedId),
                  widthInches: r.dimensions.width_inches,
                  heightInches: r.dimensions.height_inches,
                  presentation: launchPresentation(r),
                  itemUrl,
                  wallUrl: `${itemUrl}/wall`,
                  thumbs: THUMB_WIDTHS.map((w) => ({ url: `${itemUrl}/thumb/${w}.webp`, width: w })),
                  avifThumbs: THUMB_WIDTHS.map((w) => ({ url: `${itemUrl}/thumb/${w}.avif`, width: w })),
                  shareUrl: `${itemUrl}/thumb/${SHARE_FILE}`,
                  frameLabel: frameLabel(r),
                }
              : undefined,
        };
      }),
    };
  }

  private static platform(ua: string | undefined, forced: string | undefined): Platform {
    return forced === 'ios' || forced === 'android' || forced === 'desktop' ? forced : detectPlatform(ua);
  }

  async render(publicId: string, embed: boolean, ua: string | undefined, forced: string | undefined): Promise<Rendered> {
    const found = await this.find(publicId);
    if (!found) return notFound();
    const html = showcasePage(this.model(found.s, found.items), ShowcasePageService.platform(ua, forced), embed);
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
  ): Promise<Rendered> {
    const found = await this.find(publicId);
    if (!found) return notFound();
    const showcase = this.model(found.s, found.items);
    const index = showcase.items.findIndex((i) => String(i.id) === itemId);
    if (index < 0 || !showcase.items[index]!.ready) return notFound();
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
    const item = this.model(found.s, found.items).items.find((i) => String(i.id) === itemId);
    const row = found.items.find((i) => String(i.id) === itemId);
    const r = row?.result as unknown as StillImageResult | undefined;
    return item?.ready && row && r?.files?.poster?.key
      ? { jobId: row.jobId, posterKey: r.files.poster.key, shape: outerInches(item.ready) }
      : null;
  }
}
