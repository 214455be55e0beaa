import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { etagMatches } from '../../http/etag-match';
import { ShowcaseSkusService } from './showcase-skus.service';

/**
 * How long shops' pages and caches keep an answer: a minute, as the showcase page's own. A price or
 * availability edited in the console shows within it; revalidation after it costs a 304.
 */
export const SKU_LOOKUP_CACHE = 'public, max-age=60';

/**
 * The public SKU lookup (no key; docs/api.md, "By SKU"): `GET /showcase/{public_id}/skus?sku=A&sku=B`. Read from
 * any shop's page, so CORS allows every origin (nothing here depends on cookies or a key), on errors too: the
 * widget reads the 400's message. `/showcase/:id/skus` is a static segment after the id: the router prefers it
 * over ShowcasePageController's parametric routes, whatever the order the controllers are registered in.
 */
@ApiExcludeController()
@Controller('showcase')
export class ShowcaseSkusController {
  constructor(private readonly skus: ShowcaseSkusService) {}

  @Get(':publicId/skus')
  async lookup(@Param('publicId') id: string, @Query() query: unknown, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    // Before anything can throw: the error filter answers on this reply, and a shop's script must read the error.
    void reply.header('access-control-allow-origin', '*').header('x-content-type-options', 'nosniff').header('cache-control', 'no-store');
    const r = await this.skus.lookup(id, query);
    void reply.header('cache-control', SKU_LOOKUP_CACHE).header('etag', r.etag);
    if (etagMatches(req.headers['if-none-match'], r.etag)) {
      void reply.status(304).send();
      return;
    }
    void reply.status(200).header('content-type', 'application/json; charset=utf-8').send(r.body);
  }
}
