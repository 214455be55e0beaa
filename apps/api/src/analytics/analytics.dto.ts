import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** The totals of a range (and of each group). */
class AnalyticsTotalsDto {
  @ApiProperty({ description: 'The picture was on screen.' }) views!: number;
  @ApiProperty({ description: 'The 3D preview was turned or zoomed.' }) interactions!: number;
  @ApiProperty({ description: '"View in your space" opened AR Quick Look, Scene Viewer or WebXR.' }) ar_launches!: number;
  @ApiProperty({ description: "Quick Look's banner button, Scene Viewer's link or the page's buy button." }) banner_taps!: number;
  @ApiProperty({ description: 'A phone opened the desktop QR hand-off link.' }) qr_opens!: number;
  @ApiProperty({ description: 'A variant (size / frame) was chosen.' }) variant_selects!: number;
  @ApiProperty({ description: 'The room view ("On your wall, from a photo") was opened, once per picture it shows.' }) room_views!: number;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'Distinct visitors per day (daily-salted hashes), summed over the days; null for platform and referrer groups.',
  })
  unique_visitors!: number | null;
}

class FunnelStepDto {
  @ApiProperty({ enum: ['views', 'interactions', 'ar_launches', 'banner_taps'] }) step!: string;
  @ApiProperty() count!: number;
  @ApiProperty({ type: Number, nullable: true, description: 'count / the step before (null for views, or when that is 0).' }) rate!:
    number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'count / views (null when there are none).' }) of_views!: number | null;
}

class AnalyticsGroupDto extends AnalyticsTotalsDto {
  @ApiProperty({ description: "The group's day (YYYY-MM-DD), item id, platform or referring host ('' for none)." }) key!: string;
  @ApiPropertyOptional({ description: 'group_by=item.' }) item_id?: number;
  @ApiPropertyOptional({ type: 'integer', nullable: true, description: 'group_by=item.' }) showcase_id?: number | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: "group_by=item: the item's title." }) title?: string | null;
  @ApiPropertyOptional({ description: 'group_by=job: the conversion (its job_id).' }) job_id?: string;
}

/** GET /api/v2/analytics. */
export class AnalyticsDto {
  @ApiProperty({ enum: ['analytics'] }) object!: string;
  @ApiProperty({ example: '2026-11-01' }) from!: string;
  @ApiProperty({ example: '2026-11-30' }) to!: string;
  @ApiProperty({ type: String, nullable: true, description: 'The account read (null: every account, owner key).' }) account_id!:
    string | null;
  @ApiProperty({ type: 'integer', nullable: true }) showcase_id!: number | null;
  @ApiProperty({ type: 'integer', nullable: true }) item_id!: number | null;
  @ApiProperty({ type: String, nullable: true, description: 'The job_id asked for (a conversion: its own embed pages and widget).' })
  job_id!: string | null;
  @ApiProperty({ type: AnalyticsTotalsDto }) totals!: AnalyticsTotalsDto;
  @ApiProperty({ type: [FunnelStepDto] }) funnel!: FunnelStepDto[];
  @ApiProperty({ type: String, nullable: true, enum: ['day', 'item', 'job', 'platform', 'referrer'] }) group_by!: string | null;
  @ApiProperty({
    type: [AnalyticsGroupDto],
    nullable: true,
    description: 'With group_by: days in order, items ranked by AR launches, referrers by views.',
  })
  groups!: AnalyticsGroupDto[] | null;
}
