import { ApiProperty, ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { PresentationResultDto } from '../presentation/presentation.dto';

/** Response shapes of the v1 API (requests: jobs.schema.ts). */
export class ConvertResponseDto {
  @ApiProperty({ example: 'api_k3x…' }) job_id!: string;
  @ApiProperty({ enum: ['queued'] }) status!: 'queued';
}

class JobErrorDto {
  @ApiProperty({ example: 'source_not_found' }) code!: string;
  @ApiProperty({ example: 'fetch: the source answered HTTP 404' }) message!: string;
}

class CallbackAttemptDto {
  @ApiProperty({ enum: ['completed', 'failed'] }) event!: string;
  @ApiProperty() webhook_id!: string;
  @ApiProperty() attempt!: number;
  @ApiProperty({ nullable: true, type: Number }) status_code!: number | null;
  @ApiProperty({ nullable: true, type: String }) error!: string | null;
  @ApiProperty() duration_ms!: number;
  @ApiProperty() succeeded!: boolean;
  @ApiProperty() at!: string;
}

class CallbackViewDto {
  @ApiProperty({ description: "The callback_url without its query string or fragment (they often carry the receiver's token)." })
  url!: string;
  @ApiProperty() delivered!: boolean;
  @ApiProperty({ type: [CallbackAttemptDto] }) attempts!: CallbackAttemptDto[];
}

export class StageTimingDto {
  @ApiProperty({
    example: 'normalise',
    description:
      'Pipeline step id (fetch, normalise, scene, glb-writer, usdz-writer, publish; animated: animated-source, frames, motion, background-removal, flipbook-writer, publish-animated).',
  })
  stage!: string;
  @ApiProperty({ format: 'date-time' }) started_at!: string;
  @ApiProperty({ type: Number, nullable: true, example: 131.4, description: 'null while the stage runs (or when the run stopped in it).' })
  duration_ms!: number | null;
}

/** When the job's last run started and finished, and each stage it ran (a retried job: its latest run). */
export class JobTimelineDto {
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'null until a worker starts it.' }) started_at!:
    string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) finished_at!: string | null;
  @ApiProperty({ type: [StageTimingDto], description: 'In the order they ran.' }) stages!: StageTimingDto[];
}

export class StatusResponseDto extends JobTimelineDto {
  @ApiProperty() job_id!: string;
  @ApiProperty({ enum: ['queued', 'processing', 'completed', 'failed'] }) status!: string;
  @ApiProperty({ minimum: 0, maximum: 100, example: 42.5 }) progress!: number;
  @ApiPropertyOptional({ type: JobErrorDto, description: 'Present when status is failed.' }) error?: JobErrorDto;
  @ApiPropertyOptional({ type: CallbackViewDto, description: 'Present when a callback_url was given: every delivery attempt.' })
  callback?: CallbackViewDto;
  @ApiProperty() created_at!: string;
  @ApiProperty() updated_at!: string;
}

class ModelFileDto {
  @ApiProperty() url!: string;
  @ApiProperty() bytes!: number;
  @ApiProperty() content_type!: string;
}

class ModelsDto {
  @ApiProperty({ type: ModelFileDto, description: 'iOS AR Quick Look' }) usdz!: ModelFileDto;
  @ApiProperty({ type: ModelFileDto, description: 'Android Scene Viewer' }) glb!: ModelFileDto;
}

class DimensionsDto {
  @ApiProperty({ example: 42.67 }) width_inches!: number;
  @ApiProperty({ example: 24 }) height_inches!: number;
}

class ResultFieldsDto {
  @ApiProperty() job_id!: string;
  @ApiProperty({ enum: ['completed'] }) status!: string;
  @ApiProperty({ description: 'Interactive embed page (public, unguessable URL).' }) embed_url!: string;
  @ApiProperty({ description: 'Static embed page.' }) embed_url_static!: string;
  @ApiProperty() widget_script_url!: string;
  @ApiProperty({ type: ModelsDto }) models!: ModelsDto;
  @ApiProperty() poster_url!: string;
  @ApiProperty({ type: DimensionsDto }) dimensions!: DimensionsDto;
}

/** Also carries the presentation the model was built with ({@link PresentationResultDto}), when the job recorded it. */
export class ResultResponseDto extends IntersectionType(ResultFieldsDto, PresentationResultDto) {}

export class WebhookSecretDto {
  @ApiProperty({ example: 'whsec_…' }) secret!: string;
  @ApiProperty() scheme!: string;
}

/** The v1 callback body (docs/api.md, Callbacks), POSTed to callback_url when the job completes or fails. */
export class V1CallbackDto {
  @ApiProperty({ example: 'api_k3x…' }) job_id!: string;
  @ApiProperty({ enum: ['completed', 'failed'] }) status!: string;
  @ApiProperty({ type: String, nullable: true, description: 'null when failed.' }) embed_url!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'null when failed.' }) embed_url_static!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'null when failed.' }) usdz_url!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'null when failed.' }) glb_url!: string | null;
  @ApiPropertyOptional({ type: JobErrorDto, description: 'Present when failed.' }) error?: JobErrorDto;
}
