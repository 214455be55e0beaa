import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PriceLineDto } from '../accounts/accounts.dto';

/** Documentation shapes of the animated AR routes: the creation answer and the options (the request: animated-ar.schema.ts) (built by AnimatedArService). */

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
