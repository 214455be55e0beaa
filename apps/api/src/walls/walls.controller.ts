import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Req, Res, UseGuards, UseInterceptors } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiHeader, ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard, type AuthedRequest } from '../http/api-key.guard';
import { AllowScope } from '../http/api-keys/key-scope';
import { ErrorResponseDto } from '../http/error.dto';
import { IdempotencyInterceptor } from '../http/idempotency/idempotency.interceptor';
import { JsonBody } from '../http/request-schema';
import { WallCreatedDto, WallDto, WallLayoutDto, WallListDto, WallRebuildDto } from './walls.dto';
import { CreateWallBody, UpdateWallBody } from './walls.schema';
import { WallsService } from './walls.service';

const CHECKS =
  'Invalid parameter, named in error.param: items (2 to 12), items[i].item_id (not an item of this showcase), items[i] (listed twice; overlapping another in a custom arrangement), ' +
  'items[i].variant_sku, items[i].x_inches, gap_inches, align, columns, or an arrangement wider than 40 ft. Nothing stored or charged.';
const NOT_READY = 'item_not_ready: a picture is still converting; item_failed: its conversion failed. Nothing stored or charged.';

/** Saved gallery walls of a showcase (docs/gallery-walls.md). Thin: layout, billing and storage live in the service. */
@ApiTags('v2')
@ApiSecurity('api-key')
@Controller('api/v2/showcases/:id/walls')
@UseGuards(ApiKeyGuard)
export class WallsController {
  constructor(private readonly walls: WallsService) {}

  @Post()
  @HttpCode(202)
  @UseInterceptors(IdempotencyInterceptor)
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description: 'Same key + same request within 24 h returns the first answer; a different request -> 409.',
  })
  @ApiOperation({
    summary: 'Hang 2-12 pictures together: one AR model of a gallery wall (1 credit)',
    description:
      'Body: {name?, items: [{item_id, variant_sku?, x_inches?, y_inches?}], arrangement? ("row" | "grid" | "salon" | "custom"), gap_inches? (0-48, default 3), align? ("center" | "top" | "bottom"), columns? (grid)}. ' +
      "Each picture keeps its own size, frame and mat; the layout is computed at once (the answer has every picture's place), the GLB, USDZ and poster by a job. " +
      'Charges 1.0 credit for per-user keys (refunded when the build fails). The wall appears as its own card on the showcase page.',
  })
  @JsonBody(CreateWallBody)
  @ApiResponse({ status: 202, type: WallCreatedDto, description: 'Queued: {id, job_id, credits_charged, wall}.' })
  @ApiResponse({ status: 400, type: ErrorResponseDto, description: CHECKS })
  @ApiResponse({ status: 409, type: ErrorResponseDto, description: NOT_READY })
  create(@Req() req: AuthedRequest, @Param('id') id: string, @Body() body: unknown) {
    return this.walls.create(req.principal, id, body);
  }

  @Post('layout')
  @HttpCode(200)
  @AllowScope('read_only')
  @ApiOperation({
    summary: 'Where an arrangement puts the pictures (nothing stored, built or charged)',
    description:
      "The create body. Answers each picture's outer centre and size and the whole wall's outer size: a starting point to arrange from.",
  })
  @JsonBody(CreateWallBody)
  @ApiResponse({ status: 200, type: WallLayoutDto })
  @ApiResponse({ status: 400, type: ErrorResponseDto, description: CHECKS })
  @ApiResponse({ status: 409, type: ErrorResponseDto, description: NOT_READY })
  layout(@Req() req: AuthedRequest, @Param('id') id: string, @Body() body: unknown) {
    return this.walls.layout(req.principal, id, body);
  }

  @Get()
  @AllowScope('read_only')
  @ApiOperation({ summary: "The showcase's gallery walls, newest first" })
  @ApiResponse({ status: 200, type: WallListDto })
  list(@Req() req: AuthedRequest, @Param('id') id: string) {
    return this.walls.list(req.principal, id);
  }

  @Get(':wallId')
  @AllowScope('read_only')
  @ApiOperation({ summary: 'One gallery wall: status, places, files and URLs' })
  @ApiResponse({ status: 200, type: WallDto })
  get(@Req() req: AuthedRequest, @Param('id') id: string, @Param('wallId') wallId: string) {
    return this.walls.get(req.principal, id, wallId);
  }

  @Patch(':wallId')
  @ApiOperation({
    summary: 'Rename or rearrange a gallery wall',
    description:
      'Any create field; a field left out stays. A new name alone: 200 with the wall. Anything else: checked as a create is, then rebuilt, free: 202 {wall, job_id}. ' +
      'The wall keeps its id, page and embed URL and answers its build status until the new files are made.',
  })
  @JsonBody(UpdateWallBody)
  @ApiResponse({ status: 200, type: WallDto, description: 'Renamed (or nothing to change).' })
  @ApiResponse({ status: 202, type: WallRebuildDto, description: 'Being rebuilt (job_id).' })
  @ApiResponse({ status: 400, type: ErrorResponseDto, description: CHECKS })
  @ApiResponse({
    status: 409,
    type: ErrorResponseDto,
    description: `job_not_finished: the wall is still being built; wall_changed: it changed meanwhile (send it again); ${NOT_READY}`,
  })
  async update(
    @Req() req: AuthedRequest,
    @Param('id') id: string,
    @Param('wallId') wallId: string,
    @Body() body: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const out = await this.walls.update(req.principal, id, wallId, body);
    if (out.status === 202) void reply.status(202);
    return out.body;
  }

  @Delete(':wallId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a gallery wall with its files (no refund)' })
  @ApiResponse({ status: 204, description: 'Deleted.' })
  @ApiResponse({ status: 409, type: ErrorResponseDto, description: 'job_not_finished: it is still being built.' })
  @ApiResponse({ status: 503, type: ErrorResponseDto, description: 'storage_unavailable: its files could not be deleted now; try again.' })
  async remove(@Req() req: AuthedRequest, @Param('id') id: string, @Param('wallId') wallId: string): Promise<void> {
    await this.walls.remove(req.principal, id, wallId);
  }
}
