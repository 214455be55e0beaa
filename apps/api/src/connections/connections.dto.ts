import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { FRAME_STYLES } from '@app/plugins';

/** Response shapes of the shop connection routes (the requests: connections.schema.ts). Credentials never appear. */

class ConnectionWebhookUrlsDto {
  @ApiProperty({
    example: 'https://ar.example.com/webhooks/shopify/con_k3j9x0…',
    description: "Where the shop's product webhooks (create, update, delete) are to be sent.",
  })
  products!: string;
}

class ConnectionLastSyncDto {
  @ApiProperty({ format: 'date-time' }) at!: string;
  @ApiProperty({ type: String, nullable: true, description: 'The import that the sync ran (read with GET /api/v2/imports/{id}).' })
  import_id!: string | null;
  @ApiProperty({
    example: 'completed',
    description:
      'running; completed (with "; …" when something was left: conversions still running, write-backs the shop refused); unauthorized (the shop refused the credentials); failed: <why>.',
  })
  outcome!: string;
}

export class ConnectionDto {
  @ApiProperty({ example: 'con_k3j9x0…' }) id!: string;
  @ApiProperty({ enum: ['shop_connection'] }) object!: string;
  @ApiProperty({ enum: ['shopify', 'woocommerce'] }) platform!: string;
  @ApiProperty({ example: 'prints.myshopify.com', description: 'Shopify: the shop domain; WooCommerce: the store address.' })
  shop!: string;
  @ApiProperty({ example: 12 }) showcase_id!: number;
  @ApiProperty({ enum: ['metafields', 'metafields+media', 'none'] }) push!: string;
  @ApiProperty({ enum: ['cm', 'in'] }) units!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string', enum: [...FRAME_STYLES, null], nullable: true },
    example: { 'Oak frame': 'classic', Unframed: null },
    description: 'Option value → frame preset (null: no frame).',
  })
  frames!: Record<string, string | null>;
  @ApiProperty({ example: 24, description: 'Hours between scheduled syncs; 0 = off.' }) sync_interval_hours!: number;
  @ApiProperty({
    enum: ['active', 'paused', 'unauthorized'],
    description: 'unauthorized: the shop refused the credentials (revoked or missing a scope); send new ones with PATCH.',
  })
  status!: string;
  @ApiProperty({ type: ConnectionWebhookUrlsDto }) webhook_urls!: ConnectionWebhookUrlsDto;
  @ApiProperty({ type: ConnectionLastSyncDto, nullable: true, description: 'null until the first sync.' })
  last_sync!: ConnectionLastSyncDto | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class ConnectionListDto {
  @ApiProperty({ type: [ConnectionDto] }) data!: ConnectionDto[];
}

export class ConnectionTestDto {
  @ApiProperty({ description: 'The shop answered with these credentials.' }) ok!: boolean;
  @ApiPropertyOptional({ example: 'Studio North Prints', description: "When ok: the shop's name." }) shop_name?: string;
  @ApiPropertyOptional({
    enum: ['unauthorized', 'unreachable', 'error'],
    description:
      'When not ok. unauthorized: the shop refused the credentials (the connection is now `unauthorized`); unreachable: no answer, or only errors and throttling, after a retry; error: the shop answered something else.',
  })
  reason?: string;
  @ApiPropertyOptional({ description: "When not ok: what happened, in the shop's words where it gave some." }) message?: string;
}

export class ConnectionSyncDto {
  @ApiProperty({
    example: 'imp_k3j9x0…',
    description: 'The import the sync runs: read its progress, counts and per-product report with GET /api/v2/imports/{id}.',
  })
  import_id!: string;
}
