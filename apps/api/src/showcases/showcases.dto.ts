import { ApiProperty, ApiPropertyOptional, IntersectionType, OmitType, PartialType } from '@nestjs/swagger';
import { PresentationDefaultsDto, PresentationRequestDto, PresentationResultDto } from '../presentation/presentation.dto';
import { LAYOUTS, SHOWCASE_LIMITS } from './showcase-request';
import { JobTimelineDto } from '../jobs/v1.dto';

/**
 * Documentation shapes of the v2 API (validation lives in the services and their request parsers). The
 * presentation fields come from PresentationDefaultsDto / PresentationRequestDto.
 */

const PER_REQUEST = SHOWCASE_LIMITS.imageUrlsPerRequest;
const ITEM_MERGE = 'Each item\'s fields win over the showcase\'s defaults field by field: an item\'s frame replaces the default frame whole, and a field sent as null drops that default for the item. Errors name the field as items[i].field.';

class CustomLinkDto {
  @ApiProperty({ maxLength: SHOWCASE_LIMITS.linkTitle }) title!: string;
  @ApiProperty({ description: 'http(s) URL', maxLength: SHOWCASE_LIMITS.url }) url!: string;
}

class BrandingDto {
  @ApiPropertyOptional({ maxLength: SHOWCASE_LIMITS.tagline }) tagline?: string;
  @ApiPropertyOptional({ description: 'Hex colour, #rgb or #rrggbb.', example: '#0a66ff' }) primary_color?: string;
  @ApiPropertyOptional({ description: 'Hex colour, #rgb or #rrggbb.', example: '#222222' }) secondary_color?: string;
}

/** One picture of a JSON request, by URL, with its own presentation. */
class ItemUrlDto {
  @ApiProperty({ description: 'Public http(s) URL of the picture.', example: 'https://example.com/dunes.jpg', maxLength: 4096 })
  image_url!: string;
}
export class ShowcaseItemRequestDto extends IntersectionType(ItemUrlDto, PresentationRequestDto) {}

/** One entry of a multipart upload's `items` field: the presentation of the file part at the same position. */
export class UploadItemDto extends PresentationRequestDto {}

class CreateShowcaseFieldsDto {
  @ApiPropertyOptional({ description: 'Logo image, http(s) URL.' }) logo_url?: string;
  @ApiPropertyOptional({ enum: LAYOUTS, default: 'branded', description: 'Public page layout: branded (header band in the primary colour, cards), grid (image-first, no band), salon (a gallery wall: pictures at their true relative sizes on a common centre line), minimal (one large picture at a time), dark (branded on a dark background). Anything else -> 400 listing these.' }) layout_choice?: string;
  @ApiPropertyOptional({ default: false, description: 'Whether search engines may index the public page (false: noindex). Embed pages are never indexable.' }) indexable?: boolean;
  @ApiPropertyOptional({ maxLength: SHOWCASE_LIMITS.description }) description?: string;
  @ApiPropertyOptional({ type: [CustomLinkDto], maxItems: SHOWCASE_LIMITS.links }) custom_links?: CustomLinkDto[];
  @ApiPropertyOptional({ type: BrandingDto }) branding?: BrandingDto;

  @ApiPropertyOptional({ type: [String], maxItems: PER_REQUEST, description: `Pictures by URL, converted with the showcase's presentation defaults. With items: at most ${PER_REQUEST} pictures per request together; image_urls come first.`, example: ['https://example.com/a.jpg'] })
  image_urls?: string[];

  @ApiPropertyOptional({ type: [ShowcaseItemRequestDto], maxItems: PER_REQUEST, description: `Pictures with their own presentation (banner, frame, ...). ${ITEM_MERGE} The per-showcase cap (SHOWCASE_MAX_ITEMS) counts image_urls and items together.` })
  items?: ShowcaseItemRequestDto[];
}

/** The showcase's own fields, and its items' presentation defaults (placement, allow_scaling, finish, frame, mat). */
export class CreateShowcaseRequestDto extends IntersectionType(CreateShowcaseFieldsDto, PresentationDefaultsDto) {}

/** PATCH: every create field but the pictures (added with POST items); a field left out stays, null clears it. */
export class UpdateShowcaseRequestDto extends IntersectionType(OmitType(CreateShowcaseFieldsDto, ['image_urls', 'items'] as const), PresentationDefaultsDto) {}

export class AddItemsJsonDto {
  @ApiPropertyOptional({ type: [String], maxItems: PER_REQUEST, description: 'Pictures by URL, with the showcase\'s presentation defaults. One of image_urls and items is required.', example: ['https://example.com/a.jpg'] })
  image_urls?: string[];

  @ApiPropertyOptional({ type: [ShowcaseItemRequestDto], maxItems: PER_REQUEST, description: `Pictures with their own presentation. ${ITEM_MERGE} At most ${PER_REQUEST} pictures per request, image_urls and items together.` })
  items?: ShowcaseItemRequestDto[];
}

export const UPLOAD_ITEMS_DESCRIPTION = 'Optional text field (not a file), sent BEFORE the file parts: a JSON array with one entry per file part, in the same order, '
  + 'each an object with the presentation fields of a JSON item (title, subtitle, link_url, call_to_action, price, placement, allow_scaling, finish, frame, mat) and no image_url; '
  + `null or {} keeps the showcase's defaults. ${ITEM_MERGE} The number of entries must equal the number of file parts. `
  + 'Example: items=[{"title":"Dunes","price":"$120","link_url":"https://shop.example.com/dunes","call_to_action":"Buy"},{"frame":"canvas"}]. '
  + 'Validated before any file is stored; it is part of the Idempotency-Key fingerprint.';

export class AddItemsMultipartDto {
  @ApiProperty({ type: 'array', items: { type: 'string', format: 'binary' }, description: 'One or more picture files (type sniffed from the bytes; UPLOAD_MAX_FILE_BYTES per file, UPLOAD_MAX_FILES per request).' })
  files!: unknown[];

  @ApiPropertyOptional({ description: UPLOAD_ITEMS_DESCRIPTION, example: '[{"title":"Dunes","frame":{"style":"classic","color":"oak"},"mat":{"width_inches":2}},{"frame":"canvas"}]' })
  items?: string;
}

class AnimatedArFieldsDto {
  @ApiPropertyOptional({ description: 'Still image to animate, or an animated GIF / APNG / WebP baked from its own frames. https, publicly reachable, no redirects. Exactly one of image_url and video_url.' }) image_url?: string;
  @ApiPropertyOptional({ description: 'Short clip (mp4, mov, webm; at most VIDEO_MAX_BYTES), baked directly. https, no redirects.' }) video_url?: string;
  @ApiPropertyOptional({ type: Boolean, description: 'Cut out the subject per frame for a transparent card.' }) remove_background?: boolean;
  @ApiPropertyOptional({ description: 'Motion preset, image sources only (unknown values fall back to the default; see GET /api/v2/animated-ar/options).' }) motion_style?: string;
  @ApiPropertyOptional({ maxLength: 400, description: 'Free-form motion description, image sources only.' }) custom_motion?: string;
  @ApiPropertyOptional({ description: 'An enabled image-to-video model id, image sources only.' }) video_model?: string;
  @ApiPropertyOptional({ minimum: 0.1, maximum: 120, description: 'Paired with height_inches.' }) width_inches?: number;
  @ApiPropertyOptional({ minimum: 0.1, maximum: 120, description: 'Paired with width_inches.' }) height_inches?: number;
  @ApiPropertyOptional({ description: '"W:H"; the shorter side becomes 24 in.', example: '2:3' }) aspect_ratio?: string;
  @ApiPropertyOptional({ description: 'https URL POSTed the final job payload (GET /api/v2/jobs/{id}) when the job completes or fails.' }) callback_url?: string;
  @ApiPropertyOptional({
    enum: ['auto', 'crossfade', 'pingpong', 'cut'],
    default: 'auto',
    description: 'How the last frame joins the first. auto: a clip that already loops is kept; otherwise it is cut at the frame most like the first '
      + '(within the last third) and the frames after it are blended into the start. crossfade: every frame kept, the last frames dissolve into the first. '
      + 'pingpong: forward then backward (frames dropped evenly to stay within ANIMATION_MAX_FRAMES and 10 s). cut: as decoded. '
      + 'Procedural motion is an exact loop and is never blended. The result reports animation.seam_score (1 = the wrap is like one ordinary frame step).',
  }) loop?: string;
}

export class AnimatedArRequestDto extends IntersectionType(AnimatedArFieldsDto, PresentationRequestDto) {}

/* ---- responses ---- */

class PlaneDimensionsDto {
  @ApiProperty({ example: 24 }) width_inches!: number;
  @ApiProperty({ example: 36 }) height_inches!: number;
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
  @ApiProperty({ type: PlaneDimensionsDto, description: 'The picture\'s plane size (spec §2.1); the framed object\'s size is outer_dimensions.' }) dimensions!: PlaneDimensionsDto;
  @ApiPropertyOptional({ type: TextureDto, description: 'Picture jobs.' }) texture?: TextureDto;
  @ApiPropertyOptional({ description: 'Animated AR.' }) ar_model_id?: string;
  @ApiPropertyOptional({ description: 'Animated AR.' }) image_id?: string;
  @ApiPropertyOptional({ type: Boolean, description: 'Animated AR.' }) ai_motion_skipped?: boolean;
  @ApiPropertyOptional({ description: 'Animated AR.' }) credits_charged?: number;
  @ApiPropertyOptional({ description: 'Animated AR.' }) credits_refunded?: number;
  @ApiPropertyOptional({ description: 'Animated AR.' }) net_credits_charged?: number;
  @ApiPropertyOptional({ enum: ['image', 'animated-image', 'video'], description: 'Animated AR: what the source turned out to be.' }) source_kind?: string;
  @ApiPropertyOptional({
    type: 'object',
    nullable: true,
    properties: { video_model: { type: 'string', example: 'procedural' }, motion_style: { type: 'string', example: 'sway' } },
    description: 'Animated AR: the motion model and preset used (image sources); null when no motion model ran (animated images, videos).',
  }) motion?: { video_model: string; motion_style: string } | null;
  @ApiPropertyOptional({ type: Boolean, description: 'Animated AR.' }) background_removed?: boolean;
  @ApiPropertyOptional({
    type: 'object',
    nullable: true,
    properties: { path: { type: 'string', enum: ['once-before-motion', 'keyframes', 'per-frame'] }, frames_processed: { type: 'integer' } },
    description: 'Animated AR: how the background was removed: once on the still before the motion, or on every frame (null when not asked for, or on results stored before it was recorded).',
  }) background_removal?: { path: string; frames_processed: number } | null;
  @ApiPropertyOptional({ type: Object, description: 'Animated AR: frame count and timing of the loop.' }) frames?: Record<string, unknown>;
  @ApiPropertyOptional({
    type: Object,
    nullable: true,
    description: 'Animated AR: the loop as played, {frames, fps (frames / duration_s), duration_s, loop (the mode applied: auto, crossfade, pingpong or cut), '
      + 'seam_score (mean absolute difference of the last and first frames over the median difference of consecutive frames, on 32 px grey thumbnails; '
      + '1 = like one ordinary frame step, <= 1.5 seamless)}. Null on results stored before it was recorded.',
    example: { frames: 14, fps: 12, duration_s: 1.167, loop: 'auto', seam_score: 0.949 },
  }) animation?: Record<string, unknown> | null;
}

export class V2ResultDto extends IntersectionType(V2ResultFieldsDto, PresentationResultDto) {}

class V2JobErrorDto {
  @ApiProperty() code!: string;
  @ApiProperty() message!: string;
  @ApiPropertyOptional() stage?: string;
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
  @ApiPropertyOptional({ description: 'Animated AR, until completed: credits refunded (a failed job is refunded in full).' }) credits_refunded?: number;
  @ApiPropertyOptional({ description: 'Animated AR, until completed: gross minus refunded.' }) net_credits_charged?: number;
  @ApiPropertyOptional({ type: V2ResultDto, description: 'Once completed.' }) result?: V2ResultDto;
  @ApiProperty() created_at!: string;
  @ApiProperty() updated_at!: string;
}

/** A showcase item: its job's state and, once completed, the result fields at the top level. */
class ShowcaseItemFieldsDto {
  @ApiProperty() id!: number;
  @ApiProperty({ enum: ['showcase_item'] }) object!: string;
  @ApiProperty() showcase_id!: number;
  @ApiProperty() job_id!: string;
  @ApiProperty({ enum: ['queued', 'downloading', 'converting', 'uploading', 'completed', 'failed'] }) status!: string;
  @ApiProperty() progress!: number;
  @ApiProperty({ enum: ['url', 'upload'] }) source!: string;
  @ApiPropertyOptional() source_url?: string;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'Uploads: the file name sent with the part (null when none).' }) filename?: string | null;
  @ApiPropertyOptional({ type: V2JobErrorDto }) error?: V2JobErrorDto;
  @ApiProperty() created_at!: string;
}

/** The picture result fields, present once the item's job completed. */
class PartialResultDto extends PartialType(OmitType(V2ResultDto, ['ar_model_id', 'image_id', 'ai_motion_skipped', 'credits_charged', 'credits_refunded', 'net_credits_charged', 'source_kind', 'motion', 'background_removed', 'frames', 'animation'] as const)) {}

/** The result fields (V2ResultDto) are present once the item's job completed. */
export class ShowcaseItemDto extends IntersectionType(ShowcaseItemFieldsDto, PartialResultDto) {}

export class ShowcaseDto {
  @ApiProperty() id!: number;
  @ApiProperty({ enum: ['showcase'] }) object!: string;
  @ApiProperty() url!: string;
  @ApiProperty() embed_url!: string;
  @ApiProperty({ enum: LAYOUTS }) layout_choice!: string;
  @ApiProperty({ nullable: true, type: String }) logo_url!: string | null;
  @ApiProperty({ nullable: true, type: String }) description!: string | null;
  @ApiProperty({ type: [CustomLinkDto] }) custom_links!: CustomLinkDto[];
  @ApiProperty({ type: BrandingDto }) branding!: BrandingDto;
  @ApiProperty({ type: PresentationDefaultsDto, description: 'The items\' presentation defaults given at creation, as sent ({} when none).' }) presentation_defaults!: PresentationDefaultsDto;
  @ApiProperty({ description: 'Whether search engines may index the public page.' }) indexable!: boolean;
  @ApiProperty() created_at!: string;
  @ApiProperty({ type: [ShowcaseItemDto] }) items!: ShowcaseItemDto[];
}
