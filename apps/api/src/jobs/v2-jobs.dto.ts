import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { JOB_STATES } from '@app/pipeline';
import { LAYOUTS } from '../showcases/showcase-request';

/** Documentation shapes of the self-service lists (GET /api/v2/jobs, GET /api/v2/showcases). */

export const PUBLIC_JOB_KINDS = ['convert', 'showcase.picture', 'animated_ar'] as const;

class JobSummaryErrorDto {
  @ApiProperty() code!: string;
  @ApiProperty() message!: string;
}

export class JobSummaryDto {
  @ApiProperty({ example: 'v2_3kq7xa2mzp4r', description: 'api_… (details: GET /api/v1/status/{id}) or v2_… (GET /api/v2/jobs/{id}).' }) job_id!: string;
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
  @ApiProperty({ type: String, nullable: true, description: 'Pass as ?cursor= for the next page (null on the last).' }) next_cursor!: string | null;
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
  @ApiProperty({ type: String, nullable: true, description: 'Pass as ?cursor= for the next page (null on the last).' }) next_cursor!: string | null;
}
