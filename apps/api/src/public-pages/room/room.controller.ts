import { Controller, Get, Headers, Param, Query, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { sendHtml } from '../../http/compress-html';
import type { Rendered } from '../showcase/showcase-page.service';
import { RoomService } from './room.service';

/**
 * "On your wall, from a photo" (no key): `/showcase/{public_id}/items/{item_id}/room` and, for a visitor's set,
 * `/showcase/{public_id}/together/room?items=…`; `?variant=` and `?lang=` as the item pages take them, `?embed=1`
 * inside an embed frame (frameable anywhere, as the embed pages are).
 */
@ApiExcludeController()
@Controller('showcase')
export class RoomController {
  constructor(private readonly rooms: RoomService) {}

  private async send(reply: FastifyReply, r: Rendered, embed: boolean): Promise<void> {
    void reply
      .status(r.status)
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', r.cache)
      .header('vary', 'User-Agent')
      .header('content-security-policy', r.csp!)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      .header('x-robots-tag', 'noindex');
    if (!embed) void reply.header('x-frame-options', 'SAMEORIGIN');
    await sendHtml(reply, r.html);
  }

  @Get(':publicId/items/:itemId/room')
  async item(
    @Param('publicId') id: string,
    @Param('itemId') itemId: string,
    @Headers('user-agent') ua: string | undefined,
    @Query('platform') platform: string | undefined,
    @Query('lang') lang: unknown,
    @Query('variant') variant: unknown,
    @Query('embed') embed: unknown,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const r = await this.rooms.item(id, itemId, { lang, variant, embed }, ua, platform);
    await this.send(reply, { ...r, csp: r.csp ?? "default-src 'none'" }, embed === '1' || embed === 'true');
  }

  @Get(':publicId/together/room')
  async together(
    @Param('publicId') id: string,
    @Headers('user-agent') ua: string | undefined,
    @Query('platform') platform: string | undefined,
    @Query('lang') lang: unknown,
    @Query('items') items: unknown,
    @Query('item') item: unknown,
    @Query('arrangement') arrangement: unknown,
    @Query('embed') embed: unknown,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const r = await this.rooms.together(id, { items, item, arrangement, lang, embed }, ua, platform);
    await this.send(reply, { ...r, csp: r.csp ?? "default-src 'none'" }, embed === '1' || embed === 'true');
  }
}
