import { Controller, Get, Headers, Inject, Injectable, Param, Query, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ShowcaseRepository, type ShowcaseItemRow, type ShowcaseRow } from '@app/persistence';
import { type StillImageResult, THUMB_CONTENT_TYPES } from '@app/plugins';
import { STORAGE } from '@app/runtime';
import { PublicUrls } from '@app/wire';
import { STORED_FILE_CACHE_CONTROL, type StoragePort } from '@app/storage';
import { sendHtml } from '../../http/compress-html';
import { detectPlatform, launchPresentation, type Platform } from '../platform';
import { itemPage, wallPage } from './item-page';
import { hasPending, SHOWCASE_CSP, showcasePage, type PageShowcase } from './showcase-page';
import { frameLabel, outerInches, SHARE_FILE, THUMB_FILES, THUMB_WIDTHS, type PageItem } from './showcase-items';
import { ShowcaseThumbnails } from './showcase-thumbnails.service';

const NOT_FOUND = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not found</title></head><body>Not found</body></html>';

type Rendered = { status: number; html: string; cache: string; indexable: boolean };
const notFound = (): Rendered => ({ status: 404, html: NOT_FOUND, cache: 'no-store', indexable: false });

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
          ready: r && i.embedId ? {
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
          } : undefined,
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
    return { status: 200, html, cache: hasPending(found.items) ? 'no-store' : 'public, max-age=60', indexable: found.s.indexable && !embed };
  }

  /** The item page (`view: 'item'`) or its wall preview; 404 for an item not (yet) converted. */
  async renderItem(publicId: string, itemId: string, view: 'item' | 'wall', ua: string | undefined, forced: string | undefined): Promise<Rendered> {
    const found = await this.find(publicId);
    if (!found) return notFound();
    const showcase = this.model(found.s, found.items);
    const index = showcase.items.findIndex((i) => String(i.id) === itemId);
    if (index < 0 || !showcase.items[index]!.ready) return notFound();
    const ctx = { showcase, index, platform: ShowcasePageService.platform(ua, forced) };
    return { status: 200, html: view === 'item' ? itemPage(ctx) : wallPage(ctx), cache: 'public, max-age=60', indexable: found.s.indexable && view === 'item' };
  }

  /** A completed item's poster (storage key), job id and outer size, or null. */
  async poster(publicId: string, itemId: string): Promise<{ jobId: string; posterKey: string; shape: { w: number; h: number } } | null> {
    const found = await this.find(publicId);
    if (!found) return null;
    const item = this.model(found.s, found.items).items.find((i) => String(i.id) === itemId);
    const row = found.items.find((i) => String(i.id) === itemId);
    const r = row?.result as unknown as StillImageResult | undefined;
    return item?.ready && row && r?.files?.poster?.key ? { jobId: row.jobId, posterKey: r.files.poster.key, shape: outerInches(item.ready) } : null;
  }
}

/** Public showcase pages (no key): the id is the showcase's unguessable public id. */
@ApiExcludeController()
@Controller('showcase')
export class ShowcasePageController {
  constructor(
    private readonly pages: ShowcasePageService,
    private readonly thumbnails: ShowcaseThumbnails,
    @Inject(STORAGE) private readonly storage: StoragePort,
  ) {}

  private async send(reply: FastifyReply, r: Rendered, embed: boolean) {
    void reply
      .status(r.status)
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', r.cache)
      .header('vary', 'User-Agent')
      // The full page is the gallery's own page: not frameable (clickjacking). The embed variant is.
      .header('content-security-policy', `${SHOWCASE_CSP}; frame-ancestors ${embed ? '*' : "'self'"}`)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer');
    if (!embed) void reply.header('x-frame-options', 'SAMEORIGIN');
    // Search engines: only where the owner said so, and never the embed variant.
    if (!r.indexable) void reply.header('x-robots-tag', 'noindex');
    await sendHtml(reply, r.html);
  }

  @Get(':publicId')
  async page(@Param('publicId') id: string, @Headers('user-agent') ua: string | undefined, @Query('platform') platform: string | undefined, @Res() reply: FastifyReply) {
    await this.send(reply, await this.pages.render(id, false, ua, platform), false);
  }

  @Get(':publicId/embed')
  async embed(@Param('publicId') id: string, @Headers('user-agent') ua: string | undefined, @Query('platform') platform: string | undefined, @Res() reply: FastifyReply) {
    await this.send(reply, await this.pages.render(id, true, ua, platform), true);
  }

  @Get(':publicId/items/:itemId')
  async item(@Param('publicId') id: string, @Param('itemId') itemId: string, @Headers('user-agent') ua: string | undefined, @Query('platform') platform: string | undefined, @Res() reply: FastifyReply) {
    await this.send(reply, await this.pages.renderItem(id, itemId, 'item', ua, platform), false);
  }

  @Get(':publicId/items/:itemId/wall')
  async wall(@Param('publicId') id: string, @Param('itemId') itemId: string, @Headers('user-agent') ua: string | undefined, @Query('platform') platform: string | undefined, @Res() reply: FastifyReply) {
    await this.send(reply, await this.pages.renderItem(id, itemId, 'wall', ua, platform), false);
  }

  /** `480.avif` / `960.webp` / `1200.jpg`…: the item's poster resized, made by the conversion (or on first request: ShowcaseThumbnails). */
  @Get(':publicId/items/:itemId/thumb/:file')
  async thumb(@Param('publicId') id: string, @Param('itemId') itemId: string, @Param('file') file: string, @Res() reply: FastifyReply) {
    const spec = Object.hasOwn(THUMB_FILES, file) ? THUMB_FILES[file] : undefined;
    const poster = spec ? await this.pages.poster(id, itemId) : null;
    // Null key: the picture was deleted while its thumbnail was being made.
    const key = poster && spec ? await this.thumbnails.ensure(poster.jobId, poster.posterKey, file, poster.shape) : null;
    if (!key || !spec) {
      void reply.status(404).header('content-type', 'text/plain; charset=utf-8').header('cache-control', 'no-store').send('Not found');
      return;
    }
    const stat = await this.storage.stat(key);
    void reply
      .status(200)
      .header('content-type', THUMB_CONTENT_TYPES[spec.format])
      // An item's poster never changes (a new picture is a new item), but the item can be deleted (its URL
      // then answers 404): an hour in shared caches, not a year (docs/operations.md, CDN caveat).
      .header('cache-control', STORED_FILE_CACHE_CONTROL)
      .header('x-content-type-options', 'nosniff')
      .header('cross-origin-resource-policy', 'cross-origin');
    if (stat) void reply.header('content-length', String(stat.size)).header('etag', stat.etag);
    void reply.send(await this.storage.read(key));
  }
}
