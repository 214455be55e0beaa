import { Controller, Get, Headers, Inject, Injectable, Param, Query, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ShowcaseRepository } from '@app/persistence';
import type { StillImageResult } from '@app/plugins';
import { PublicUrls, STORAGE } from '@app/runtime';
import type { StoragePort } from '@app/storage';
import { detectPlatform, launchPresentation, type Platform } from '../embed/platform';
import { hasPending, SHOWCASE_CSP, showcasePage } from './showcase-page';

const NOT_FOUND = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not found</title></head><body>Not found</body></html>';

@Injectable()
export class ShowcasePageService {
  constructor(
    private readonly showcases: ShowcaseRepository,
    private readonly urls: PublicUrls,
    @Inject(STORAGE) private readonly storage: StoragePort,
  ) {}

  async render(publicId: string, embed: boolean, ua: string | undefined, forced: string | undefined): Promise<{ status: number; html: string; cache: string }> {
    const s = /^shw_[a-z2-7]{24}$/.test(publicId) ? await this.showcases.findByPublicId(publicId) : null;
    if (!s) return { status: 404, html: NOT_FOUND, cache: 'no-store' };
    const items = await this.showcases.items(s.id);
    const platform: Platform = forced === 'ios' || forced === 'android' || forced === 'desktop' ? forced : detectPlatform(ua);
    const html = showcasePage({
      layout: s.layout,
      logoUrl: s.logo_url,
      description: s.description,
      links: s.custom_links,
      tagline: s.branding.tagline ?? null,
      primary: s.branding.primary_color ?? null,
      secondary: s.branding.secondary_color ?? null,
      pageUrl: embed ? this.urls.showcaseEmbed(s.public_id) : this.urls.showcase(s.public_id),
      items: items.map((i, n) => {
        const r = i.status === 'completed' ? (i.result as unknown as StillImageResult | null) : null;
        return {
          id: i.id,
          status: i.status,
          progress: i.progress,
          title: i.filename ?? `Picture ${n + 1}`,
          ready: r && i.embed_id ? {
            posterUrl: this.storage.url(r.files.poster.key),
            glbUrl: this.storage.url(r.files.glb.key),
            usdzUrl: this.storage.url(r.files.usdz.key),
            embedUrl: this.urls.embed(i.embed_id),
            widthInches: r.dimensions.width_inches,
            heightInches: r.dimensions.height_inches,
            presentation: launchPresentation(r),
          } : undefined,
        };
      }),
    }, platform, embed);
    return { status: 200, html, cache: hasPending(items) ? 'no-store' : 'public, max-age=60' };
  }
}

/** Public showcase pages (no key): the id is the showcase's unguessable public id. */
@ApiExcludeController()
@Controller('showcase')
export class ShowcasePageController {
  constructor(private readonly pages: ShowcasePageService) {}

  private async send(reply: FastifyReply, id: string, embed: boolean, ua?: string, platform?: string) {
    const r = await this.pages.render(id, embed, ua, platform);
    void reply
      .status(r.status)
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', r.cache)
      .header('vary', 'User-Agent')
      // The full page is the gallery's own page: not frameable (clickjacking). The embed variant is.
      .header('content-security-policy', `${SHOWCASE_CSP}; frame-ancestors ${embed ? '*' : "'self'"}`)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      .header(embed ? 'x-robots-tag' : 'x-frame-options', embed ? 'noindex' : 'SAMEORIGIN')
      .send(r.html);
  }

  @Get(':publicId')
  page(@Param('publicId') id: string, @Headers('user-agent') ua: string | undefined, @Query('platform') platform: string | undefined, @Res() reply: FastifyReply) {
    return this.send(reply, id, false, ua, platform);
  }

  @Get(':publicId/embed')
  embed(@Param('publicId') id: string, @Headers('user-agent') ua: string | undefined, @Query('platform') platform: string | undefined, @Res() reply: FastifyReply) {
    return this.send(reply, id, true, ua, platform);
  }
}
