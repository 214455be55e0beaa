import { Controller, Get, Headers, Inject, Param, Query, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { AppConfig } from '@app/config';
import { APP_CONFIG } from '@app/runtime';
import { sendHtml } from '../../http/compress-html';
import { embedCsp } from './embed-page';
import { EmbedService } from './embed.service';

/** Public embed pages (no key): the id is the job's unguessable public id; `?variant=<sku>` picks a showcase item's variant. */
@ApiExcludeController()
@Controller('embed')
export class EmbedController {
  private readonly csp: string;

  constructor(
    private readonly embeds: EmbedService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.csp = embedCsp(config.publicBaseUrl);
  }

  private headers(reply: FastifyReply, cache: string): FastifyReply {
    return reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', cache)
      .header('content-security-policy', this.csp)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'strict-origin-when-cross-origin');
  }

  @Get(':publicId')
  async interactive(
    @Param('publicId') id: string,
    @Headers('user-agent') ua: string | undefined,
    @Query('platform') platform: string | undefined,
    @Query('lang') lang: unknown,
    @Query('variant') variant: unknown,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const r = await this.embeds.render(id, 'interactive', ua, platform, lang, variant);
    await sendHtml(this.headers(reply.status(r.status), r.cache).header('vary', 'User-Agent'), r.html);
  }

  @Get(':publicId/static')
  async static(
    @Param('publicId') id: string,
    @Query('lang') lang: unknown,
    @Query('variant') variant: unknown,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const r = await this.embeds.render(id, 'static', undefined, undefined, lang, variant);
    await sendHtml(this.headers(reply.status(r.status), r.cache), r.html);
  }
}
