import { Body, Controller, Get, HttpCode, Post, Req, UseGuards, UseInterceptors } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard, type AuthedRequest } from '../http/api-key.guard';
import { AllowScope } from '../http/api-keys/key-scope';
import { IdempotencyInterceptor } from '../http/idempotency/idempotency.interceptor';
import { AnimatedArCreatedDto, AnimatedArOptionsDto } from './animated-ar.dto';
import { AnimatedArBody } from './animated-ar.schema';
import { JsonBody } from '../http/request-schema';
import { AnimatedArService } from './animated-ar.service';

/** v2 animated AR (docs/api.md, v2 Animated AR). Thin: validation, pricing and charging live in the service. */
@ApiTags('v2')
@ApiSecurity('api-key')
@Controller('api/v2/animated-ar')
@UseGuards(ApiKeyGuard)
export class AnimatedArController {
  constructor(private readonly animated: AnimatedArService) {}

  @Post()
  @HttpCode(202)
  @UseInterceptors(IdempotencyInterceptor)
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description: 'Same key + same body within 24 h returns the first answer (no second charge); a different body -> 409.',
  })
  @ApiOperation({
    summary:
      'Animated AR job: a still image animated by a motion model, an animated GIF / APNG / WebP, or a short video, into a looping GLB + USDZ',
    description:
      'Body: {image_url | video_url (exactly one; https, no redirects), remove_background?, motion_style?, custom_motion? (<= 400 chars), video_model?, width_inches? + height_inches?, callback_url? (https), ' +
      'placement?, allow_scaling?, finish?, frame?, mat?, title?, subtitle?, link_url?, call_to_action?, price?}. ' +
      'Charged up front for per-user keys (image 13.5, +1.5 with background removal; video 1.0, +1.5); a failed job is refunded; an already-animated image gets the AI motion part back. 402 when short of credits.',
  })
  @JsonBody(AnimatedArBody)
  @ApiResponse({
    status: 202,
    description: 'Queued and charged; poll GET /api/v2/jobs/{job_id} or wait for the callback.',
    type: AnimatedArCreatedDto,
  })
  @ApiResponse({ status: 400, description: 'Invalid parameter, named in error.param; nothing charged.' })
  create(@Req() req: AuthedRequest, @Body() body: unknown) {
    return this.animated.create(req.principal, body);
  }

  @Get('options')
  @AllowScope('read_only')
  @ApiOperation({ summary: 'Motion style presets, enabled video models, limits and prices in force' })
  @ApiResponse({ status: 200, type: AnimatedArOptionsDto })
  options(@Req() req: AuthedRequest) {
    return this.animated.options(req.principal);
  }
}
