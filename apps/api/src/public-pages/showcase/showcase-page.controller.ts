import { Controller, Get, Headers, Inject, Param, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { THUMB_CONTENT_TYPES } from '@app/plugins';
import { STORAGE } from '@app/runtime';
import { STORED_FILE_CACHE_CONTROL, type StoragePort } from '@app/storage';
import { sendHtml } from '../../http/compress-html';
import { etagMatches } from '../../http/etag-match';
import { showcaseCsp } from './page-shell';
import { THUMB_FILES } from './showcase-items';
import { type Rendered, ShowcasePageService } from './showcase-page.service';
import { ShowcaseThumbnails } from './showcase-thumbnails.service';

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
      .header('content-security-policy', r.csp ?? `${showcaseCsp(r.beacon)}; frame-ancestors ${embed ? '*' : "'self'"}`)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer');
    if (!embed) void reply.header('x-frame-options', 'SAMEORIGIN');
    // Search engines: only where the owner said so, and never the embed variant.
    if (!r.indexable) void reply.header('x-robots-tag', 'noindex');
    await sendHtml(reply, r.html);
  }

  @Get(':publicId')
  async page(
    @Param('publicId') id: string,
    @Headers('user-agent') ua: string | undefined,
    @Query('platform') platform: string | undefined,
    @Query('lang') lang: unknown,
    @Res() reply: FastifyReply,
  ) {
    await this.send(reply, await this.pages.render(id, false, ua, platform, lang), false);
  }

  @Get(':publicId/embed')
  async embed(
    @Param('publicId') id: string,
    @Headers('user-agent') ua: string | undefined,
    @Query('platform') platform: string | undefined,
    @Query('lang') lang: unknown,
    @Res() reply: FastifyReply,
  ) {
    await this.send(reply, await this.pages.render(id, true, ua, platform, lang), true);
  }

  @Get(':publicId/items/:itemId')
  async item(
    @Param('publicId') id: string,
    @Param('itemId') itemId: string,
    @Headers('user-agent') ua: string | undefined,
    @Query('platform') platform: string | undefined,
    @Query('lang') lang: unknown,
    @Query('variant') variant: unknown,
    @Res() reply: FastifyReply,
  ) {
    await this.send(reply, await this.pages.renderItem(id, itemId, 'item', ua, platform, lang, variant), false);
  }

  @Get(':publicId/items/:itemId/wall')
  async wall(
    @Param('publicId') id: string,
    @Param('itemId') itemId: string,
    @Headers('user-agent') ua: string | undefined,
    @Query('platform') platform: string | undefined,
    @Query('lang') lang: unknown,
    @Query('variant') variant: unknown,
    @Res() reply: FastifyReply,
  ) {
    await this.send(reply, await this.pages.renderItem(id, itemId, 'wall', ua, platform, lang, variant), false);
  }

  /** A visitor's pictures seen together (`?items=12,15:SKU,19` or, from the form without a script, `?item=12&item=15`). */
  @Get(':publicId/together')
  async together(
    @Param('publicId') id: string,
    @Headers('user-agent') ua: string | undefined,
    @Query('platform') platform: string | undefined,
    @Query('lang') lang: unknown,
    @Query('items') items: unknown,
    @Query('item') item: unknown,
    @Query('arrangement') arrangement: unknown,
    @Res() reply: FastifyReply,
  ) {
    await this.send(reply, await this.pages.renderTogether(id, { items, item, arrangement }, ua, platform, lang), false);
  }

  /**
   * A visitor wall's model files and poster, built on the first request (VisitorWalls; the visitor is the
   * request's IP for the per-minute limit: 429 with Retry-After) and then served from storage.
   */
  @Get(':publicId/together/:file')
  async togetherFile(
    @Param('publicId') id: string,
    @Param('file') file: string,
    @Query('items') items: unknown,
    @Query('item') item: unknown,
    @Query('arrangement') arrangement: unknown,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ) {
    const { key, type } = await this.pages.togetherFile(id, file, { items, item, arrangement }, req.ip);
    const stat = await this.storage.stat(key);
    void reply
      .header('content-type', type)
      .header('cache-control', STORED_FILE_CACHE_CONTROL)
      .header('access-control-allow-origin', '*')
      .header('x-content-type-options', 'nosniff')
      .header('cross-origin-resource-policy', 'cross-origin');
    if (stat) {
      void reply.header('etag', stat.etag).header('last-modified', stat.lastModified.toUTCString());
      if (etagMatches(req.headers['if-none-match'], stat.etag)) {
        void reply.status(304).send();
        return;
      }
      void reply.header('content-length', String(stat.size));
    }
    void reply.status(200).send(await this.storage.read(key));
  }

  /** A saved gallery wall's page (built walls only). */
  @Get(':publicId/walls/:wallId')
  async savedWall(
    @Param('publicId') id: string,
    @Param('wallId') wallId: string,
    @Headers('user-agent') ua: string | undefined,
    @Query('platform') platform: string | undefined,
    @Query('lang') lang: unknown,
    @Res() reply: FastifyReply,
  ) {
    await this.send(reply, await this.pages.renderWall(id, wallId, ua, platform, lang), false);
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
