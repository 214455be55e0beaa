import { Body, Controller, Get, HttpCode, Param, Post, Req, Res, UseGuards, UseInterceptors } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiBody, ApiConsumes, ApiExtraModels, ApiHeader, ApiOperation, ApiResponse, ApiSecurity, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { ApiKeyGuard, type AuthedRequest } from '../http/api-key.guard';
import { IdempotencyInterceptor } from '../http/idempotency/idempotency.interceptor';
import { ShowcasesService } from './showcases.service';
import { AddItemsJsonDto, AddItemsMultipartDto, CreateShowcaseRequestDto, ShowcaseDto, ShowcaseItemDto, UPLOAD_ITEMS_DESCRIPTION } from './v2.dto';
import { ItemsAddedDto, ShowcaseCreatedDto } from './v2-responses.dto';

const IDEMPOTENCY = { name: 'Idempotency-Key', required: false, description: 'Same key + same request within 24 h returns the first answer; a different request -> 409.' };

/** v2 Pro Showcases (spec §4.1). Thin: validation, billing and storage live in the service. */
@ApiTags('v2')
@ApiSecurity('api-key')
@ApiExtraModels(AddItemsJsonDto, AddItemsMultipartDto)
@Controller('api/v2/showcases')
@UseGuards(ApiKeyGuard)
export class ShowcasesController {
  constructor(private readonly showcases: ShowcasesService) {}

  @Post()
  @HttpCode(201)
  @UseInterceptors(IdempotencyInterceptor)
  @ApiHeader(IDEMPOTENCY)
  @ApiOperation({
    summary: 'Create a Pro showcase',
    description: 'Body: {logo_url?, layout_choice? ("branded" | "minimal" | "dark"), description?, custom_links? [{title, url}], branding? {tagline, primary_color, secondary_color}, image_urls? [...], '
      + 'items? [{image_url, title, subtitle, link_url, call_to_action, price, placement, allow_scaling, finish, frame, mat}], and the items\' presentation defaults placement?, allow_scaling?, finish?, frame?, mat?}. '
      + 'Every picture\'s job gets its own fields merged over the defaults (the item wins per field). '
      + 'Charges 5.0 + 2.0 per picture for per-user keys, all or nothing; uses one showcase slot. 402 when short of credits, 403 when no slot is left.',
  })
  @ApiBody({ type: CreateShowcaseRequestDto })
  @ApiResponse({ status: 400, description: 'Invalid parameter, named in error.param (e.g. frame.style, items[1].frame.color); nothing stored or charged.' })
  @ApiResponse({ status: 201, description: 'Created; one queued job per initial picture.', type: ShowcaseCreatedDto })
  create(@Req() req: AuthedRequest, @Body() body: unknown) {
    return this.showcases.create(req.principal, body);
  }

  @Get(':id')
  @ApiOperation({ summary: 'A showcase with its items (404 for other accounts)' })
  @ApiResponse({ status: 200, type: ShowcaseDto })
  get(@Req() req: AuthedRequest, @Param('id') id: string) {
    return this.showcases.get(req.principal, id);
  }

  @Post(':id/items')
  @HttpCode(202)
  @UseInterceptors(IdempotencyInterceptor)
  @ApiHeader(IDEMPOTENCY)
  @ApiConsumes('application/json', 'multipart/form-data')
  @ApiBody({
    description: 'application/json: {image_urls?: [...], items?: [{image_url, title, frame, ...}]} (at most 20 pictures together; AddItemsJsonDto), '
      + 'or multipart/form-data (AddItemsMultipartDto): one or more file parts named "files" (type sniffed from the bytes; caps UPLOAD_MAX_FILE_BYTES per file, UPLOAD_MAX_FILES per request) '
      + `and, to give each file its own presentation, a text field "items" before them. items: ${UPLOAD_ITEMS_DESCRIPTION}`,
    schema: { oneOf: [{ $ref: getSchemaPath(AddItemsJsonDto) }, { $ref: getSchemaPath(AddItemsMultipartDto) }] },
  })
  @ApiOperation({ summary: 'Add pictures (2.0 credits each for per-user keys)' })
  @ApiResponse({ status: 202, description: 'Queued; one job per picture.', type: ItemsAddedDto })
  async addItems(@Req() req: AuthedRequest, @Param('id') id: string, @Res({ passthrough: true }) reply: FastifyReply) {
    if (!req.isMultipart()) return this.showcases.addUrls(req.principal, id, req.body);
    const out = await this.showcases.addUploads(req.principal, id, req);
    if (out.replayed) void reply.header('idempotent-replayed', 'true');
    return out.body;
  }

  @Get(':id/items/:itemId')
  @ApiOperation({ summary: 'One item: status, dimensions, presentation, model and embed URLs' })
  @ApiResponse({ status: 200, type: ShowcaseItemDto })
  item(@Req() req: AuthedRequest, @Param('id') id: string, @Param('itemId') itemId: string) {
    return this.showcases.item(req.principal, id, itemId);
  }
}
