import { ApiProperty, ApiPropertyOptional, IntersectionType, OmitType, PartialType } from '@nestjs/swagger';
import { PresentationDefaultsDto } from '../presentation/presentation.dto';
import { FitResultDto, PlaneCentimetresDto, PlaneDimensionsDto, V2JobErrorDto, V2ResultDto } from '../jobs/v2-jobs.dto';
import { FrameResultDto, MatResultDto, OuterDimensionsDto } from '../presentation/presentation.dto';
import { LAYOUTS, PAGE_LOCALES, SHOWCASE_LIMITS } from './showcases.schema';

/**
 * Response shapes of the showcase routes (the requests: showcases.schema.ts).
 */

class CustomLinkDto {
  @ApiProperty({ maxLength: SHOWCASE_LIMITS.linkTitle }) title!: string;
  @ApiProperty({ description: 'http(s) URL', maxLength: SHOWCASE_LIMITS.url }) url!: string;
}

class BrandingDto {
  @ApiPropertyOptional({ maxLength: SHOWCASE_LIMITS.tagline }) tagline?: string;
  @ApiPropertyOptional({ description: 'Hex colour, #rgb or #rrggbb.', example: '#0a66ff' }) primary_color?: string;
  @ApiPropertyOptional({ description: 'Hex colour, #rgb or #rrggbb.', example: '#222222' }) secondary_color?: string;
}

/* ---- responses ---- */

/** Why an item's last rebuild failed. */
class RebuildErrorDto {
  @ApiProperty({ example: 'upload_missing' }) code!: string;
  @ApiProperty() message!: string;
  @ApiProperty({ description: 'The rebuild job that failed.' }) job_id!: string;
  @ApiProperty({ format: 'date-time' }) at!: string;
}

/** One size and frame an item is sold in, with its own files once built. */
class ItemVariantDto {
  @ApiProperty({ example: 'var_k3j9x0…' }) id!: string;
  @ApiProperty({ maxLength: 64, example: 'DUNES-50x70-OAK' }) sku!: string;
  @ApiProperty({ type: String, nullable: true, maxLength: 80, description: 'null: the pages name it by its size and frame.' })
  name!: string | null;
  @ApiProperty({ description: 'The variant the item shows first (exactly one).' }) default!: boolean;
  @ApiProperty({ type: String, nullable: true, example: '€149' }) price!: string | null;
  @ApiProperty({ type: String, nullable: true }) link_url!: string | null;
  @ApiProperty({ type: String, nullable: true }) call_to_action!: string | null;
  @ApiProperty({ enum: ['available', 'reserved', 'sold', 'not_for_sale'] }) availability!: string;
  @ApiPropertyOptional({ description: 'As sent.' }) width_inches?: number;
  @ApiPropertyOptional({ description: 'As sent.' }) height_inches?: number;
  @ApiPropertyOptional({ description: 'As sent.' }) width_cm?: number;
  @ApiPropertyOptional({ description: 'As sent.' }) height_cm?: number;
  @ApiPropertyOptional({ description: 'As sent.' }) depth_inches?: number;
  @ApiPropertyOptional({ description: 'As sent.' }) depth_cm?: number;
  @ApiProperty({
    enum: ['ready', 'building', 'failed'],
    description: 'ready: its files below serve it; building: its first files are being made; failed: it has none (see error).',
  })
  status!: string;
  @ApiPropertyOptional() usdz_url?: string;
  @ApiPropertyOptional() glb_url?: string;
  @ApiPropertyOptional() preview_url?: string;
  @ApiPropertyOptional({ type: String, nullable: true, description: "The item's embed page with this variant selected (?variant=sku)." })
  embed_url?: string | null;
  @ApiPropertyOptional({ type: PlaneDimensionsDto }) dimensions?: PlaneDimensionsDto;
  @ApiPropertyOptional({ type: PlaneCentimetresDto, nullable: true }) dimensions_cm?: PlaneCentimetresDto | null;
  @ApiPropertyOptional({ type: OuterDimensionsDto }) outer_dimensions?: OuterDimensionsDto;
  @ApiPropertyOptional({ type: FitResultDto }) fit?: FitResultDto;
  @ApiPropertyOptional({ type: FrameResultDto, nullable: true }) frame?: FrameResultDto | null;
  @ApiPropertyOptional({ type: MatResultDto, nullable: true }) mat?: MatResultDto | null;
  @ApiPropertyOptional({ enum: ['unlit', 'matte', 'gloss'], nullable: true }) finish?: string | null;
  @ApiPropertyOptional({ enum: ['wall', 'floor'], nullable: true }) placement?: string | null;
  @ApiPropertyOptional({ description: 'A build of new files in progress; the files above serve until it completes.' })
  build_job_id?: string;
  @ApiPropertyOptional({ type: RebuildErrorDto, description: 'Why its last build failed.' }) error?: RebuildErrorDto;
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
  @ApiPropertyOptional({ type: String, nullable: true, description: 'Uploads: the file name sent with the part (null when none).' })
  filename?: string | null;
  @ApiPropertyOptional({ type: V2JobErrorDto }) error?: V2JobErrorDto;
  @ApiProperty({ type: String, nullable: true }) artist!: string | null;
  @ApiProperty({ type: String, nullable: true }) year!: string | null;
  @ApiProperty({ type: String, nullable: true }) medium!: string | null;
  @ApiProperty({ type: String, nullable: true }) edition!: string | null;
  @ApiProperty({ type: String, nullable: true }) description!: string | null;
  @ApiProperty({ type: String, nullable: true, description: "The work's id in the gallery's catalogue; unique in the showcase." })
  external_id!: string | null;
  @ApiProperty({ enum: ['available', 'reserved', 'sold', 'not_for_sale'] }) availability!: string;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Order in the showcase (lower first; null: after those with one).' })
  position!: number | null;
  @ApiProperty({
    type: [ItemVariantDto],
    nullable: true,
    description: "The sizes and frames the item is sold in (null: none). The item's own files, size and price are its default variant's.",
  })
  variants!: ItemVariantDto[] | null;
  @ApiPropertyOptional({
    description:
      "A rebuild of the item's files in progress (after a size or presentation edit): the files above stay until this job completes, then the item switches to it.",
    example: 'v2_3kq7xa…',
  })
  rebuild_job_id?: string;
  @ApiPropertyOptional({
    type: RebuildErrorDto,
    description: "Why the item's last rebuild failed (the item kept its files); gone with the next rebuild.",
  })
  rebuild_error?: RebuildErrorDto;
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
  @ApiProperty({ description: 'Whether the public pages count engagement (GET /api/v2/analytics).' }) analytics!: boolean;
  @ApiProperty({ enum: ['in', 'cm'], description: 'Which unit the pages show first.' }) units!: 'in' | 'cm';
  @ApiProperty({ enum: PAGE_LOCALES, description: 'The language of the public pages.' }) locale!: string;
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

/** 202 of PATCH /api/v2/showcases/{id}/items/{item_id}: the item (still with its files) and the job rebuilding them. */
export class ItemRebuildDto {
  @ApiProperty({
    type: ShowcaseItemDto,
    description: 'The item with the edit applied; its files are the old ones until the rebuild completes.',
  })
  item!: ShowcaseItemDto;
  @ApiProperty({ description: 'The job rebuilding the files (GET /api/v2/jobs/{id}); free of charge.', example: 'v2_3kq7xa…' })
  rebuild_job_id!: string;
}

/** 200 of PUT /api/v2/showcases/{id}/items/order. */
export class ItemsOrderDto {
  @ApiProperty({ type: 'integer', example: 7 }) showcase_id!: number;
  @ApiProperty({ type: [ShowcaseItemDto], description: "The showcase's items in their new order." }) items!: ShowcaseItemDto[];
}
