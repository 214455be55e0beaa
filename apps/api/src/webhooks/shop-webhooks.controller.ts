import { Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { ShopWebhooksService } from './shop-webhooks.service';
import type { RawBodyRequest } from './webhook-bodies';

/**
 * Where the shops post their product webhooks (docs/integrations.md, "Connect a shop"). Not part of the API's
 * document: the shops call these, signed with the connection's webhook secret, not API clients with a key.
 */
@ApiExcludeController()
@Controller('webhooks')
export class ShopWebhooksController {
  constructor(private readonly webhooks: ShopWebhooksService) {}

  @Post('shopify/:id')
  @HttpCode(200)
  shopify(@Req() req: RawBodyRequest, @Param('id') id: string) {
    return this.webhooks.shopify(id, req.rawBody, req.headers);
  }

  @Post('woocommerce/:id')
  @HttpCode(200)
  woocommerce(@Req() req: RawBodyRequest, @Param('id') id: string) {
    return this.webhooks.woocommerce(id, req.rawBody, req.headers);
  }
}
