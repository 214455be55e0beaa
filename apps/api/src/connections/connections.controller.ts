import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Req, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard, type AuthedRequest } from '../http/api-key.guard';
import { AllowScope } from '../http/api-keys/key-scope';
import { ErrorResponseDto } from '../http/error.dto';
import { JsonBody } from '../http/request-schema';
import { ConnectionDto, ConnectionListDto, ConnectionSyncDto, ConnectionTestDto } from './connections.dto';
import { CreateConnectionBody, UpdateConnectionBody } from './connections.schema';
import { ConnectionsService } from './connections.service';
import { ConnectionSync } from './sync/connection-sync.service';

const CHECKS =
  'Invalid parameter, named in error.param: platform, shop_domain (<name>.myshopify.com), shop_url (https; not a private address), a credential (empty, spaces), ' +
  'push ("metafields+media" is Shopify only), units, frames.<value> (not a frame preset), sync_interval_hours (0-168). Nothing stored.';

/**
 * Shop connections (issue 41, docs/api.md "Shop connections"): a Shopify or WooCommerce shop tied to one of the
 * caller's showcases. Thin: validation, sealing and the shop test live in the service. Managed with a `full` key;
 * a `read_only` key may list and read them; widget keys never see them (403).
 */
@ApiTags('v2')
@ApiSecurity('api-key')
@Controller('api/v2/connections')
@UseGuards(ApiKeyGuard)
export class ConnectionsController {
  constructor(
    private readonly connections: ConnectionsService,
    private readonly sync: ConnectionSync,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Connect a Shopify or WooCommerce shop to a showcase',
    description:
      'Body: {platform: "shopify", shop_domain, access_token, webhook_secret, showcase_id} or {platform: "woocommerce", shop_url, consumer_key, consumer_secret, webhook_secret, showcase_id}, ' +
      'plus push?, units?, frames?, sync_interval_hours?. The credentials are stored encrypted and never returned. Nothing is read from the shop here: ' +
      'POST /api/v2/connections/{id}/test checks the credentials. The answer has the webhook URL to paste into the shop.',
  })
  @JsonBody(CreateConnectionBody)
  @ApiResponse({ status: 201, type: ConnectionDto })
  @ApiResponse({ status: 400, type: ErrorResponseDto, description: CHECKS })
  @ApiResponse({ status: 404, type: ErrorResponseDto, description: 'showcase_id is not a showcase of this account.' })
  @ApiResponse({
    status: 409,
    type: ErrorResponseDto,
    description: 'shop_already_connected: this shop is already connected to that showcase.',
  })
  create(@Req() req: AuthedRequest, @Body() body: unknown) {
    return this.connections.create(req.principal, body);
  }

  @Get()
  @AllowScope('read_only')
  @ApiOperation({ summary: "The account's shop connections, oldest first" })
  @ApiResponse({ status: 200, type: ConnectionListDto })
  list(@Req() req: AuthedRequest) {
    return this.connections.list(req.principal);
  }

  @Get(':id')
  @AllowScope('read_only')
  @ApiOperation({ summary: 'One shop connection: settings, status, webhook URL, last sync (never its credentials)' })
  @ApiResponse({ status: 200, type: ConnectionDto })
  get(@Req() req: AuthedRequest, @Param('id') id: string) {
    return this.connections.get(req.principal, id);
  }

  @Patch(':id')
  @ApiOperation({
    summary: "Change a connection's settings, pause or resume it, or replace its credentials",
    description:
      'Any of push, units, frames, sync_interval_hours, status ("paused" | "active"), and the credentials of its platform (Shopify: access_token, webhook_secret; ' +
      'WooCommerce: consumer_key with consumer_secret, webhook_secret). New credentials make an `unauthorized` connection active again. The shop and the showcase stay: connect again to change them.',
  })
  @JsonBody(UpdateConnectionBody)
  @ApiResponse({ status: 200, type: ConnectionDto })
  @ApiResponse({ status: 400, type: ErrorResponseDto, description: CHECKS })
  update(@Req() req: AuthedRequest, @Param('id') id: string, @Body() body: unknown) {
    return this.connections.update(req.principal, id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Disconnect a shop: the connection and its credentials are deleted; the showcase and its items stay' })
  @ApiResponse({ status: 204, description: 'Deleted.' })
  async remove(@Req() req: AuthedRequest, @Param('id') id: string): Promise<void> {
    await this.connections.remove(req.principal, id);
  }

  @Post(':id/test')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Reach the shop with the stored credentials and name it',
    description:
      'Shopify: the shop query of the Admin GraphQL API; WooCommerce: the WordPress index and the store currency (which needs the key). ' +
      '{ok: true, shop_name} or {ok: false, reason, message}; a refusal marks the connection `unauthorized`, a success makes it active again.',
  })
  @ApiResponse({ status: 200, type: ConnectionTestDto })
  @ApiResponse({
    status: 409,
    type: ErrorResponseDto,
    description: "credentials_unreadable: sealed with another CONNECTIONS_SECRET_KEY than this service's; send them again with PATCH.",
  })
  test(@Req() req: AuthedRequest, @Param('id') id: string) {
    return this.connections.test(req.principal, id);
  }

  @Post(':id/sync')
  @HttpCode(202)
  @ApiOperation({
    summary: "Sync the shop's catalogue into the showcase now",
    description:
      'Pulls every published product and its variants and runs them as a catalogue import (one row per product, external_id `shopify:<id>` / `woocommerce:<id>`): ' +
      'new pictures are charged as any import, an unchanged product changes and costs nothing, a product without a print size is reported `size_unknown` and not converted, ' +
      'a product no longer published hides its item (`not_for_sale`). Then the AR links are written back to the shop (push). ' +
      'Answers the import at once; read it with GET /api/v2/imports/{id}. A sync already running for the connection: its import.',
  })
  @ApiResponse({ status: 202, type: ConnectionSyncDto })
  @ApiResponse({
    status: 409,
    type: ErrorResponseDto,
    description: "credentials_unreadable: sealed with another CONNECTIONS_SECRET_KEY than this service's; send them again with PATCH.",
  })
  syncNow(@Req() req: AuthedRequest, @Param('id') id: string) {
    return this.sync.syncNow(req.principal, id);
  }
}
