import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  Put,
  Query,
  Req,
  Res,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiBody, ApiConsumes, ApiHeader, ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard, type AuthedRequest } from '../http/api-key.guard';
import { AllowScope } from '../http/api-keys/key-scope';
import { IdempotencyInterceptor } from '../http/idempotency/idempotency.interceptor';
import { ShowcasesService } from './showcases.service';
import { ItemEdits } from './item-edits.service';
import { ErrorResponseDto } from '../http/error.dto';
import {
  AddItemsBody,
  AddItemsMultipart,
  CreateShowcaseBody,
  ShowcaseListQuery,
  UpdateShowcaseBody,
  UPLOAD_ITEMS_DESCRIPTION,
} from './showcases.schema';
import { ReorderItemsBody, UpdateItemBody } from './item/item-edit.schema';
import { JsonBody, QueryParams } from '../http/request-schema';
import { schemaRef } from '@app/schema';
import {
  ItemRebuildDto,
  ItemsAddedDto,
  ItemsOrderDto,
  ShowcaseCreatedDto,
  ShowcaseDto,
  ShowcaseItemDto,
  ShowcaseListDto,
} from './showcases.dto';

const IDEMPOTENCY = {
  name: 'Idempotency-Key',
  required: false,
  description: 'Same key + same request within 24 h returns the first answer; a different request -> 409.',
};

/** v2 Pro Showcases (docs/api.md, v2 Pro Showcases). Thin: validation, billing and storage live in the service. */
@ApiTags('v2')
@ApiSecurity('api-key')
@Controller('api/v2/showcases')
@UseGuards(ApiKeyGuard)
export class ShowcasesController {
  constructor(
    private readonly showcases: ShowcasesService,
    private readonly edits: ItemEdits,
  ) {}

  @Post()
  @HttpCode(201)
  @UseInterceptors(IdempotencyInterceptor)
  @ApiHeader(IDEMPOTENCY)
  @ApiOperation({
    summary: 'Create a Pro showcase',
    description:
      'Body: {logo_url?, layout_choice? ("branded" | "grid" | "salon" | "minimal" | "dark"), indexable? (default false), description?, custom_links? [{title, url}], branding? {tagline, primary_color, secondary_color}, image_urls? [...], ' +
      "items? [{image_url, title, subtitle, link_url, call_to_action, price, placement, allow_scaling, finish, frame, mat}], and the items' presentation defaults placement?, allow_scaling?, finish?, frame?, mat?}. " +
      "Every picture's job gets its own fields merged over the defaults (the item wins per field). " +
      'Charges 5.0 + 2.0 per picture for per-user keys, all or nothing; uses one showcase slot. 402 when short of credits, 403 when no slot is left.',
  })
  @JsonBody(CreateShowcaseBody)
  @ApiResponse({
    status: 400,
    description: 'Invalid parameter, named in error.param (e.g. frame.style, items[1].frame.color); nothing stored or charged.',
  })
  @ApiResponse({ status: 201, description: 'Created; one queued job per initial picture.', type: ShowcaseCreatedDto })
  create(@Req() req: AuthedRequest, @Body() body: unknown) {
    return this.showcases.create(req.principal, body);
  }

  @Get()
  @AllowScope('read_only')
  @ApiOperation({
    summary: "The caller's showcases, newest first",
    description: 'Page with ?limit= and ?cursor= (next_cursor of the previous page).',
  })
  @QueryParams(ShowcaseListQuery)
  @ApiResponse({ status: 200, type: ShowcaseListDto })
  list(@Req() req: AuthedRequest, @Query() q: unknown) {
    return this.showcases.list(req.principal, q);
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Change a showcase',
    description:
      'Any create field but the pictures: logo_url, layout_choice, description, custom_links, branding and the presentation defaults. A field left out stays; null clears it ' +
      '(back to its default); custom_links and branding are replaced whole. Validated as a create would be. Free; the public pages show the change at once. ' +
      'New presentation defaults apply to pictures added afterwards.',
  })
  @JsonBody(UpdateShowcaseBody)
  @ApiResponse({ status: 200, type: ShowcaseDto })
  @ApiResponse({ status: 400, description: 'Invalid parameter, named in error.param (image_urls / items: add pictures with POST items).' })
  update(@Req() req: AuthedRequest, @Param('id') id: string, @Body() body: unknown) {
    return this.showcases.update(req.principal, id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete a showcase with its pictures and their files',
    description:
      "Removes every picture's job and stored files (models, posters, uploads). The public pages answer 404 from then on, each picture's embed pages and file URLs 410. " +
      'The showcase slot is free again. No refunds: converted pictures were delivered (failed ones were refunded when they failed). Ledger entries are kept.',
  })
  @ApiResponse({ status: 204, description: 'Deleted.' })
  @ApiResponse({
    status: 409,
    type: ErrorResponseDto,
    description:
      'job_not_finished: pictures still converting (wait or cancel them first); showcase_changed: pictures were added meanwhile.',
  })
  @ApiResponse({ status: 503, type: ErrorResponseDto, description: 'storage_unavailable: some files could not be deleted now; try again.' })
  async remove(@Req() req: AuthedRequest, @Param('id') id: string): Promise<void> {
    await this.showcases.remove(req.principal, id);
  }

  @Get(':id')
  @AllowScope('read_only')
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
    description:
      'application/json: {image_urls?: [...], items?: [{image_url, title, frame, ...}]} (at most 20 pictures together; AddItemsJsonDto), ' +
      'or multipart/form-data (AddItemsMultipartDto): one or more file parts named "files" (type sniffed from the bytes; caps UPLOAD_MAX_FILE_BYTES per file, UPLOAD_MAX_FILES per request) ' +
      `and, to give each file its own presentation, a text field "items" before them. items: ${UPLOAD_ITEMS_DESCRIPTION}`,
    schema: { oneOf: [schemaRef(AddItemsBody), schemaRef(AddItemsMultipart)] },
  })
  @ApiOperation({ summary: 'Add pictures (2.0 credits each for per-user keys)' })
  @ApiResponse({ status: 202, description: 'Queued; one job per picture.', type: ItemsAddedDto })
  async addItems(@Req() req: AuthedRequest, @Param('id') id: string, @Res({ passthrough: true }) reply: FastifyReply) {
    if (!req.isMultipart()) return this.showcases.addUrls(req.principal, id, req.body);
    const out = await this.showcases.addUploads(req.principal, id, req);
    if (out.replayed) void reply.header('idempotent-replayed', 'true');
    return out.body;
  }

  @Put(':id/items/order')
  @ApiOperation({
    summary: 'Order the items',
    description:
      "Body: {item_ids: [...]}, all or some of the showcase's item ids, each once: they get position 0..n-1 in that order (the others keep theirs), in one transaction. Free. " +
      "Answers the showcase's items in their new order.",
  })
  @JsonBody(ReorderItemsBody)
  @ApiResponse({ status: 200, type: ItemsOrderDto })
  @ApiResponse({
    status: 400,
    description: 'Invalid parameter, named in error.param: item_ids[i] for an id listed twice or not an item of the showcase.',
  })
  reorder(@Req() req: AuthedRequest, @Param('id') id: string, @Body() body: unknown) {
    return this.edits.reorder(req.principal, id, body);
  }

  @Patch(':id/items/:itemId')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Edit an item in place',
    description:
      'Any field of a JSON item but image_url. A field left out stays; null clears it (back to the default). Free. ' +
      'Label (artist, year, medium, edition, description, external_id), availability, position and banner (title, subtitle, link_url, call_to_action, price) apply at once: 200 with the item. ' +
      'Size (width_inches/height_inches or width_cm/height_cm, depth_inches/depth_cm, fit) and presentation (frame, mat, finish, placement, allow_scaling) rebuild the GLB and USDZ from the stored texture (the source is not fetched again): ' +
      '202 {item, rebuild_job_id}. The item keeps its files until the rebuild completes, then switches to the new ones; its embed URL stays. A later edit that also needs a rebuild supersedes a pending one. ' +
      'A failed rebuild keeps the files and shows rebuild_error. The merged item is validated as a create would validate it.',
  })
  @JsonBody(UpdateItemBody)
  @ApiResponse({ status: 200, type: ShowcaseItemDto, description: 'Applied (or nothing to change); no rebuild needed.' })
  @ApiResponse({ status: 202, type: ItemRebuildDto, description: 'Applied; the files are being rebuilt (rebuild_job_id).' })
  @ApiResponse({ status: 400, description: 'Invalid parameter, named in error.param (e.g. frame.style, mat); nothing changed.' })
  @ApiResponse({
    status: 409,
    type: ErrorResponseDto,
    description:
      'external_id_taken: another item of the showcase has this external_id; item_not_ready: the size or presentation of a picture still converting; item_failed: of a picture whose conversion failed; item_changed: the item kept changing while the edit was made (send it again). Nothing changed.',
  })
  async updateItem(
    @Req() req: AuthedRequest,
    @Param('id') id: string,
    @Param('itemId') itemId: string,
    @Body() body: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const out = await this.edits.update(req.principal, id, itemId, body);
    if (out.status === 202) void reply.status(202);
    return out.body;
  }

  @Delete(':id/items/:itemId')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete one picture with its job and files',
    description:
      'The picture leaves the public pages; its embed pages and file URLs answer 410, GET of the item 404. No refund (a failed picture was refunded when it failed).',
  })
  @ApiResponse({ status: 204, description: 'Deleted.' })
  @ApiResponse({
    status: 409,
    type: ErrorResponseDto,
    description: 'job_not_finished: the picture is still converting, or its files are being rebuilt; wait or cancel it first.',
  })
  @ApiResponse({ status: 503, type: ErrorResponseDto, description: 'storage_unavailable: its files could not be deleted now; try again.' })
  async removeItem(@Req() req: AuthedRequest, @Param('id') id: string, @Param('itemId') itemId: string): Promise<void> {
    await this.showcases.removeItem(req.principal, id, itemId);
  }

  @Get(':id/items/:itemId')
  @AllowScope('read_only')
  @ApiOperation({ summary: 'One item: status, dimensions, presentation, model and embed URLs' })
  @ApiResponse({ status: 200, type: ShowcaseItemDto })
  item(@Req() req: AuthedRequest, @Param('id') id: string, @Param('itemId') itemId: string) {
    return this.showcases.item(req.principal, id, itemId);
  }
}
