import { ApiProperty, ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { JOB_STATES } from '@app/pipeline';
import { OuterDimensionsDto, PresentationResultDto } from '../presentation/presentation.dto';
import { JobTimelineDto } from './v1.dto';

/** Documentation shapes of the v2 job routes: the caller's list (GET /api/v2/jobs) and one job (GET /api/v2/jobs/{id}). */

export const PUBLIC_JOB_KINDS = ['convert', 'showcase.picture', 'animated_ar'] as const;

class JobSummaryErrorDto {
  @ApiProperty() code!: string;
  @ApiProperty() message!: string;
}

export class JobSummaryDto {
  @ApiProperty({ example: 'v2_3kq7xa2mzp4r', description: 'api_… (details: GET /api/v1/status/{id}) or v2_… (GET /api/v2/jobs/{id}).' })
  job_id!: string;
  @ApiProperty({ enum: ['job'] }) object!: string;
  @ApiProperty({ enum: PUBLIC_JOB_KINDS, description: 'convert (v1), showcase.picture, animated_ar.' }) kind!: string;
  @ApiProperty({ enum: JOB_STATES }) status!: string;
  @ApiProperty({ minimum: 0, maximum: 100 }) progress!: number;
  @ApiPropertyOptional({ type: JobSummaryErrorDto, description: 'Present when status is failed.' }) error?: JobSummaryErrorDto;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) finished_at!: string | null;
}

export class JobListDto {
  @ApiProperty({ type: [JobSummaryDto], description: 'Newest first.' }) data!: JobSummaryDto[];
  @ApiProperty() has_more!: boolean;
  @ApiProperty({ type: String, nullable: true, description: 'Pass as ?cursor= for the next page (null on the last).' }) next_cursor!:
    string | null;
}

export class PlaneDimensionsDto {
  @ApiProperty({ example: 24 }) width_inches!: number;
  @ApiProperty({ example: 36 }) height_inches!: number;
}

export class PlaneCentimetresDto {
  @ApiProperty({ example: 60.96 }) width_cm!: number;
  @ApiProperty({ example: 91.44 }) height_cm!: number;
}

export class FitResultDto {
  @ApiProperty({ enum: ['crop', 'stretch'] }) requested!: string;
  @ApiProperty({ enum: ['none', 'crop', 'stretch'], description: "none: the picture already had the size's aspect (within 1 %)." })
  applied!: string;
  @ApiProperty({ description: "The picture's width / height, 4 decimals.", example: 1.3333 }) source_aspect!: number;
  @ApiProperty({ description: 'The given width / height, 4 decimals.', example: 1 }) target_aspect!: number;
}

class TextureDto {
  @ApiProperty() width!: number;
  @ApiProperty() height!: number;
}

/** A completed v2 job's result: picture jobs (showcase items) and animated AR. */
class V2ResultFieldsDto {
  @ApiProperty() usdz_url!: string;
  @ApiProperty() glb_url!: string;
  @ApiProperty() preview_url!: string;
  @ApiProperty({ nullable: true, type: String }) embed_url!: string | null;
  @ApiProperty({ nullable: true, type: String }) embed_url_static!: string | null;
  @ApiProperty({
    type: PlaneDimensionsDto,
    description: "The picture's plane size (without a frame or mat); the framed object's size is outer_dimensions.",
  })
  dimensions!: PlaneDimensionsDto;
  @ApiPropertyOptional({ type: TextureDto, description: 'Picture jobs.' }) texture?: TextureDto;
  @ApiPropertyOptional({ type: PlaneCentimetresDto, description: 'Picture jobs: `dimensions` in centimetres (2 decimals).' })
  dimensions_cm?: PlaneCentimetresDto;
  @ApiPropertyOptional({
    type: FitResultDto,
    description:
      'Picture jobs given an explicit size: whether the picture was cropped or stretched to it (within 1 % of its aspect: none).',
  })
  fit?: FitResultDto;
  @ApiPropertyOptional({ description: 'Animated AR.' }) ar_model_id?: string;
  @ApiPropertyOptional({ description: 'Animated AR.' }) image_id?: string;
  @ApiPropertyOptional({ type: Boolean, description: 'Animated AR.' }) ai_motion_skipped?: boolean;
  @ApiPropertyOptional({ description: 'Animated AR.' }) credits_charged?: number;
  @ApiPropertyOptional({ description: 'Animated AR.' }) credits_refunded?: number;
  @ApiPropertyOptional({ description: 'Animated AR.' }) net_credits_charged?: number;
  @ApiPropertyOptional({ enum: ['image', 'animated-image', 'video'], description: 'Animated AR: what the source turned out to be.' })
  source_kind?: string;
  @ApiPropertyOptional({
    type: 'object',
    nullable: true,
    properties: { video_model: { type: 'string', example: 'procedural' }, motion_style: { type: 'string', example: 'sway' } },
    description: 'Animated AR: the motion model and preset used (image sources); null when no motion model ran (animated images, videos).',
  })
  motion?: { video_model: string; motion_style: string } | null;
  @ApiPropertyOptional({ type: Boolean, description: 'Animated AR.' }) background_removed?: boolean;
  @ApiPropertyOptional({
    type: 'object',
    nullable: true,
    properties: { path: { type: 'string', enum: ['once-before-motion', 'keyframes', 'per-frame'] }, frames_processed: { type: 'integer' } },
    description:
      'Animated AR: how the background was removed: once on the still before the motion, or on every frame (null when not asked for, or on results stored before it was recorded).',
  })
  background_removal?: { path: string; frames_processed: number } | null;
  @ApiPropertyOptional({ type: Object, description: 'Animated AR: frame count and timing of the loop.' }) frames?: Record<string, unknown>;
  @ApiPropertyOptional({
    type: Object,
    nullable: true,
    description:
      'Animated AR: the loop as played, {frames, fps (frames / duration_s), duration_s, loop (the mode applied: auto, crossfade, pingpong or cut), ' +
      'seam_score (mean absolute difference of the last and first frames over the median difference of consecutive frames, on 32 px grey thumbnails; ' +
      '1 = like one ordinary frame step, <= 1.5 seamless)}. Null on results stored before it was recorded.',
    example: { frames: 14, fps: 12, duration_s: 1.167, loop: 'auto', seam_score: 0.949 },
  })
  animation?: Record<string, unknown> | null;
  @ApiPropertyOptional({
    type: Object,
    description:
      "A gallery wall's build (docs/gallery-walls.md): {arrangement, gap_inches, align, columns?, pictures: [{item_id, variant_sku, x_inches, y_inches, width_inches, height_inches}], " +
      "textures: {atlas, reencoded, count, px, picture_px}, materials, decoded_texture_bytes}. `dimensions` is then the whole wall's outer size.",
  })
  wall?: Record<string, unknown>;
}

export class V2ResultDto extends IntersectionType(V2ResultFieldsDto, PresentationResultDto) {}

export class V2JobErrorDto {
  @ApiProperty() code!: string;
  @ApiProperty() message!: string;
  @ApiPropertyOptional() stage?: string;
}

/** One variant a variant build job made files for. */
export class VariantBuildDto {
  @ApiProperty({ example: 'var_k3j9x0…' }) variant_id!: string;
  @ApiProperty() usdz_url!: string;
  @ApiProperty() glb_url!: string;
  @ApiProperty() preview_url!: string;
  @ApiProperty({ type: PlaneDimensionsDto }) dimensions!: PlaneDimensionsDto;
  @ApiPropertyOptional({ type: OuterDimensionsDto }) outer_dimensions?: OuterDimensionsDto;
}

export class V2JobDto extends JobTimelineDto {
  @ApiProperty({ example: 'v2_…' }) job_id!: string;
  @ApiProperty({ enum: ['job'] }) object!: string;
  @ApiProperty({ enum: ['showcase.picture', 'animated_ar'] }) kind!: string;
  @ApiProperty({ enum: ['queued', 'downloading', 'converting', 'uploading', 'completed', 'failed'] }) status!: string;
  @ApiProperty({ minimum: 0, maximum: 100 }) progress!: number;
  @ApiPropertyOptional() showcase_id?: number;
  @ApiPropertyOptional() item_id?: number;
  @ApiPropertyOptional({ type: V2JobErrorDto, description: 'Present when status is failed.' }) error?: V2JobErrorDto;
  @ApiPropertyOptional({ description: 'Animated AR, until completed (then in result): gross credits charged.' }) credits_charged?: number;
  @ApiPropertyOptional({ description: 'Animated AR, until completed: credits refunded (a failed job is refunded in full).' })
  credits_refunded?: number;
  @ApiPropertyOptional({ description: 'Animated AR, until completed: gross minus refunded.' }) net_credits_charged?: number;
  @ApiPropertyOptional({ type: V2ResultDto, description: 'Once completed (not for a variant build: see variants).' }) result?: V2ResultDto;
  @ApiPropertyOptional({
    type: [VariantBuildDto],
    description: "A variant build (PATCH of an item's variants), once completed: each variant it built, with its files.",
  })
  variants?: VariantBuildDto[];
  @ApiProperty() created_at!: string;
  @ApiProperty() updated_at!: string;
}
