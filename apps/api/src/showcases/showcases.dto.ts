import { ApiProperty, ApiPropertyOptional, IntersectionType, OmitType, PartialType } from '@nestjs/swagger';
import { PresentationDefaultsDto, PresentationRequestDto } from '../presentation/presentation.dto';
import { V2JobErrorDto, V2ResultDto } from '../jobs/v2-jobs.dto';
import { LAYOUTS, SHOWCASE_LIMITS } from './showcase-request';

/**
 * Documentation shapes of the showcase routes (validation lives in ShowcasesService and showcase-request.ts).
 * The presentation fields come from PresentationDefaultsDto / PresentationRequestDto.
 */

const PER_REQUEST = SHOWCASE_LIMITS.imageUrlsPerRequest;
const ITEM_MERGE =
  "Each item's fields win over the showcase's defaults field by field: an item's frame replaces the default frame whole, and a field sent as null drops that default for the item. Errors name the field as items[i].field.";

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
  @ApiPropertyOptional({
    enum: LAYOUTS,
    default: 'branded',
    description:
      'Public page layout: branded (header band in the primary colour, cards), grid (image-first, no band), salon (a gallery wall: pictures at their true relative sizes on a common centre line), minimal (one large picture at a time), dark (branded on a dark background). Anything else -> 400 listing these.',
  })
  layout_choice?: string;
  @ApiPropertyOptional({
    default: false,
    description: 'Whether search engines may index the public page (false: noindex). Embed pages are never indexable.',
  })
  indexable?: boolean;
  @ApiPropertyOptional({ maxLength: SHOWCASE_LIMITS.description }) description?: string;
  @ApiPropertyOptional({ type: [CustomLinkDto], maxItems: SHOWCASE_LIMITS.links }) custom_links?: CustomLinkDto[];
  @ApiPropertyOptional({ type: BrandingDto }) branding?: BrandingDto;

  @ApiPropertyOptional({
    type: [String],
    maxItems: PER_REQUEST,
    description: `Pictures by URL, converted with the showcase's presentation defaults. With items: at most ${PER_REQUEST} pictures per request together; image_urls come first.`,
    example: ['https://example.com/a.jpg'],
  })
  image_urls?: string[];

  @ApiPropertyOptional({
    type: [ShowcaseItemRequestDto],
    maxItems: PER_REQUEST,
    description: `Pictures with their own presentation (banner, frame, ...). ${ITEM_MERGE} The per-showcase cap (SHOWCASE_MAX_ITEMS) counts image_urls and items together.`,
  })
  items?: ShowcaseItemRequestDto[];
}

/** The showcase's own fields, and its items' presentation defaults (placement, allow_scaling, finish, frame, mat). */
export class CreateShowcaseRequestDto extends IntersectionType(CreateShowcaseFieldsDto, PresentationDefaultsDto) {}

/** PATCH: every create field but the pictures (added with POST items); a field left out stays, null clears it. */
export class UpdateShowcaseRequestDto extends IntersectionType(
  OmitType(CreateShowcaseFieldsDto, ['image_urls', 'items'] as const),
  PresentationDefaultsDto,
) {}

export class AddItemsJsonDto {
  @ApiPropertyOptional({
    type: [String],
    maxItems: PER_REQUEST,
    description: "Pictures by URL, with the showcase's presentation defaults. One of image_urls and items is required.",
    example: ['https://example.com/a.jpg'],
  })
  image_urls?: string[];

  @ApiPropertyOptional({
    type: [ShowcaseItemRequestDto],
    maxItems: PER_REQUEST,
    description: `Pictures with their own presentation. ${ITEM_MERGE} At most ${PER_REQUEST} pictures per request, image_urls and items together.`,
  })
  items?: ShowcaseItemRequestDto[];
}

export const UPLOAD_ITEMS_DESCRIPTION =
  'Optional text field (not a file), sent BEFORE the file parts: a JSON array with one entry per file part, in the same order, ' +
  'each an object with the presentation fields of a JSON item (title, subtitle, link_url, call_to_action, price, placement, allow_scaling, finish, frame, mat) and no image_url; ' +
  `null or {} keeps the showcase's defaults. ${ITEM_MERGE} The number of entries must equal the number of file parts. ` +
  'Example: items=[{"title":"Dunes","price":"$120","link_url":"https://shop.example.com/dunes","call_to_action":"Buy"},{"frame":"canvas"}]. ' +
  'Validated before any file is stored; it is part of the Idempotency-Key fingerprint.';

export class AddItemsMultipartDto {
  @ApiProperty({
    type: 'array',
    items: { type: 'string', format: 'binary' },
    description: 'One or more picture files (type sniffed from the bytes; UPLOAD_MAX_FILE_BYTES per file, UPLOAD_MAX_FILES per request).',
  })
  files!: unknown[];

  @ApiPropertyOptional({
    description: UPLOAD_ITEMS_DESCRIPTION,
    example: '[{"title":"Dunes","frame":{"style":"classic","color":"oak"},"mat":{"width_inches":2}},{"frame":"canvas"}]',
  })
  items?: string;
}

/* ---- responses ---- */

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
  @ApiPropertyOptional({ type: String, nullable: true, description: 'Uploads: the file name sent with the part (null when none).' })
  filename?: string | null;
  @ApiPropertyOptional({ type: V2JobErrorDto }) error?: V2JobErrorDto;
  @ApiProperty() created_at!: string;
}

/** The picture result fields, present once the item's job completed. */
class PartialResultDto extends PartialType(
  OmitType(V2ResultDto, [
    'ar_model_id',
    'image_id',
    'ai_motion_skipped',
    'credits_charged',
    'credits_refunded',
    'net_credits_charged',
    'source_kind',
    'motion',
    'background_removed',
    'frames',
    'animation',
  ] as const),
) {}

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
  @ApiProperty({
    type: PresentationDefaultsDto,
    description: "The items' presentation defaults given at creation, as sent ({} when none).",
  })
  presentation_defaults!: PresentationDefaultsDto;
  @ApiProperty({ description: 'Whether search engines may index the public page.' }) indexable!: boolean;
  @ApiProperty() created_at!: string;
  @ApiProperty({ type: [ShowcaseItemDto] }) items!: ShowcaseItemDto[];
}

export class QueuedJobDto {
  @ApiProperty({ example: 'v2_3kq7xa…' }) job_id!: string;
  @ApiProperty({ type: 'integer', example: 12 }) item_id!: number;
  @ApiProperty({ enum: ['queued'] }) status!: string;
}

export class ShowcaseCreatedDto {
  @ApiProperty({ type: 'integer', example: 7 }) id!: number;
  @ApiProperty({ description: 'Public showcase page.', example: 'https://ar.example.com/showcase/shw_…' }) url!: string;
  @ApiProperty({ description: 'Frameable variant of the page.', example: 'https://ar.example.com/showcase/shw_…/embed' })
  embed_url!: string;
  @ApiProperty({ type: [QueuedJobDto], description: 'One job per initial picture (image_urls first, then items).' })
  queued_jobs!: QueuedJobDto[];
  @ApiProperty({ description: '0 for the owner key.', example: 9 }) credits_charged!: number;
}

export class ItemsAddedDto {
  @ApiProperty({ type: 'integer', example: 7 }) showcase_id!: number;
  @ApiProperty({ type: [QueuedJobDto] }) queued_jobs!: QueuedJobDto[];
  @ApiProperty({ example: 4 }) credits_charged!: number;
}

export class ShowcaseSummaryDto {
  @ApiProperty({ example: 7 }) id!: number;
  @ApiProperty({ enum: ['showcase'] }) object!: string;
  @ApiProperty({ description: 'Public page.' }) url!: string;
  @ApiProperty({ description: 'Public page for iframes.' }) embed_url!: string;
  @ApiProperty({ enum: LAYOUTS }) layout_choice!: string;
  @ApiProperty({ type: String, nullable: true }) description!: string | null;
  @ApiProperty({ type: 'integer', example: 3 }) item_count!: number;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export class ShowcaseListDto {
  @ApiProperty({ type: [ShowcaseSummaryDto], description: 'Newest first.' }) data!: ShowcaseSummaryDto[];
  @ApiProperty() has_more!: boolean;
  @ApiProperty({ type: String, nullable: true, description: 'Pass as ?cursor= for the next page (null on the last).' }) next_cursor!:
    string | null;
}
