import { Controller, Get, Headers, Param, Query, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { EmbedService } from './embed.service';

/** Public embed pages (no key): the id is the job's unguessable public id. */
@ApiExcludeController()
@Controller('embed')
export class EmbedController {
  constructor(private readonly embeds: EmbedService) {}

  @Get(':publicId')
  async interactive(@Param('publicId') id: string, @Headers('user-agent') ua: string | undefined, @Query('platform') platform: string | undefined, @Res() reply: FastifyReply): Promise<void> {
    const r = await this.embeds.render(id, 'interactive', ua, platform);
    void reply.status(r.status).header('content-type', 'text/html; charset=utf-8').header('cache-control', r.cache).header('vary', 'User-Agent').send(r.html);
  }

  @Get(':publicId/static')
  async static(@Param('publicId') id: string, @Res() reply: FastifyReply): Promise<void> {
    const r = await this.embeds.render(id, 'static');
    void reply.status(r.status).header('content-type', 'text/html; charset=utf-8').header('cache-control', r.cache).send(r.html);
  }
}
