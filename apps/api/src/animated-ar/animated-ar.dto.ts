import { ApiProperty, ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { PriceLineDto } from '../accounts/accounts.dto';
import { PresentationRequestDto } from '../presentation/presentation.dto';

/** Documentation shapes of the animated AR routes: the request, the creation answer and the options (built by AnimatedArService). */

class AnimatedArFieldsDto {
  @ApiPropertyOptional({
    description:
      'Still image to animate, or an animated GIF / APNG / WebP baked from its own frames. https, publicly reachable, no redirects. Exactly one of image_url and video_url.',
  })
  image_url?: string;
  @ApiPropertyOptional({ description: 'Short clip (mp4, mov, webm; at most VIDEO_MAX_BYTES), baked directly. https, no redirects.' })
  video_url?: string;
  @ApiPropertyOptional({ type: Boolean, description: 'Cut out the subject per frame for a transparent card.' }) remove_background?: boolean;
  @ApiPropertyOptional({
    description: 'Motion preset, image sources only (unknown values fall back to the default; see GET /api/v2/animated-ar/options).',
  })
  motion_style?: string;
  @ApiPropertyOptional({ maxLength: 400, description: 'Free-form motion description, image sources only.' }) custom_motion?: string;
  @ApiPropertyOptional({ description: 'An enabled image-to-video model id, image sources only.' }) video_model?: string;
  @ApiPropertyOptional({ minimum: 0.1, maximum: 120, description: 'Paired with height_inches.' }) width_inches?: number;
  @ApiPropertyOptional({ minimum: 0.1, maximum: 120, description: 'Paired with width_inches.' }) height_inches?: number;
  @ApiPropertyOptional({ description: '"W:H"; the shorter side becomes 24 in.', example: '2:3' }) aspect_ratio?: string;
  @ApiPropertyOptional({ description: 'https URL POSTed the final job payload (GET /api/v2/jobs/{id}) when the job completes or fails.' })
  callback_url?: string;
  @ApiPropertyOptional({
    enum: ['auto', 'crossfade', 'pingpong', 'cut'],
    default: 'auto',
    description:
      'How the last frame joins the first. auto: a clip that already loops is kept; otherwise it is cut at the frame most like the first ' +
      '(within the last third) and the frames after it are blended into the start. crossfade: every frame kept, the last frames dissolve into the first. ' +
      'pingpong: forward then backward (frames dropped evenly to stay within ANIMATION_MAX_FRAMES and 10 s). cut: as decoded. ' +
      'Procedural motion is an exact loop and is never blended. The result reports animation.seam_score (1 = the wrap is like one ordinary frame step).',
  })
  loop?: string;
}

export class AnimatedArRequestDto extends IntersectionType(AnimatedArFieldsDto, PresentationRequestDto) {}

class AnimatedPricingDto {
  @ApiProperty({ description: 'false for the owner key (nothing charged).' }) billed!: boolean;
  @ApiProperty({ type: [PriceLineDto] }) lines!: PriceLineDto[];
  @ApiProperty({ example: 13.5 }) total!: number;
  @ApiPropertyOptional({ description: 'Image sources: the refund rule for already-animated images.' }) note?: string;
}

class IgnoredParamDto {
  @ApiProperty({ example: 'motion_style' }) param!: string;
  @ApiProperty({ example: 'has no effect on a video source' }) reason!: string;
}

export class AnimatedArCreatedDto {
  @ApiProperty({ example: 'v2_m4q…' }) job_id!: string;
  @ApiProperty({ enum: ['job'] }) object!: string;
  @ApiProperty({ enum: ['animated_ar'] }) kind!: string;
  @ApiProperty({ enum: ['queued'] }) status!: string;
  @ApiProperty({ enum: ['image', 'video'] }) source!: string;
  @ApiProperty({ type: AnimatedPricingDto }) pricing!: AnimatedPricingDto;
  @ApiProperty({ description: 'Charged up front; 0 for the owner key.', example: 13.5 }) credits_charged!: number;
  @ApiPropertyOptional({ description: 'Image sources: the motion model used.', example: 'procedural' }) video_model?: string;
  @ApiPropertyOptional({ type: [IgnoredParamDto], description: 'Parameters that have no effect on this source.' })
  ignored?: IgnoredParamDto[];
}

class MotionStyleDto {
  @ApiProperty({ example: 'sway' }) id!: string;
  @ApiProperty() label!: string;
  @ApiProperty() description!: string;
  @ApiProperty() default!: boolean;
}

class VideoModelDto {
  @ApiProperty({ description: 'The video_model value.', example: 'procedural' }) id!: string;
  @ApiProperty() display_name!: string;
  @ApiProperty() provider!: string;
  @ApiPropertyOptional() description?: string;
  @ApiProperty() default!: boolean;
}

class VideoProviderDto {
  @ApiProperty({ example: 'runway' }) id!: string;
  @ApiProperty() enabled!: boolean;
  @ApiPropertyOptional({ description: 'Owner key only: why the provider is off.' }) reason?: string;
}

class AnimatedLimitsDto {
  @ApiProperty({ type: 'integer', example: 400 }) custom_motion_chars!: number;
  @ApiProperty({ type: 'integer', example: 209715200 }) video_max_bytes!: number;
  @ApiProperty({ example: 30 }) video_max_duration_s!: number;
  @ApiProperty({ type: [String], example: ['mp4', 'mov', 'webm'] }) video_formats!: string[];
  @ApiProperty({ example: 10 }) loop_max_s!: number;
  @ApiProperty({ type: 'integer' }) max_frames!: number;
  @ApiProperty({ type: 'integer' }) max_frame_px!: number;
  @ApiProperty() source_url!: string;
}

class AnimatedPricesDto {
  @ApiProperty() billed!: boolean;
  @ApiProperty({ example: 13.5 }) image!: number;
  @ApiProperty({ example: 15 }) image_with_background_removal!: number;
  @ApiProperty({ example: 1 }) video!: number;
  @ApiProperty({ example: 2.5 }) video_with_background_removal!: number;
}

export class AnimatedArOptionsDto {
  @ApiProperty({ type: [MotionStyleDto] }) motion_styles!: MotionStyleDto[];
  @ApiProperty() default_motion_style!: string;
  @ApiProperty({ type: [VideoModelDto] }) video_models!: VideoModelDto[];
  @ApiProperty({ example: 'procedural' }) default_video_model!: string;
  @ApiProperty({ type: [VideoProviderDto] }) video_providers!: VideoProviderDto[];
  @ApiProperty({ type: AnimatedLimitsDto }) limits!: AnimatedLimitsDto;
  @ApiProperty({ type: AnimatedPricesDto }) pricing!: AnimatedPricesDto;
}
