import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { ApiErrorType } from './api-error';

const ERROR_TYPES: readonly ApiErrorType[] = [
  'invalid_request_error',
  'authentication_error',
  'insufficient_credits',
  'permission_error',
  'not_found',
  'conflict',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  'api_error',
];

class ErrorBodyDto {
  @ApiProperty({ enum: ERROR_TYPES, example: 'invalid_request_error' }) type!: string;
  @ApiProperty({
    description:
      'Stable machine-readable code, e.g. parameter_invalid, invalid_api_key, resource_missing, job_finished, idempotency_key_reused, rate_limit_exceeded, internal_error.',
    example: 'parameter_invalid',
  })
  code!: string;
  @ApiProperty({ example: 'aspect_ratio: must be "W:H"' }) message!: string;
  @ApiPropertyOptional({ description: 'The request field at fault, when there is one.', example: 'aspect_ratio' }) param?: string;
  @ApiProperty({ example: 'req_…' }) request_id!: string;
}

/** The body of every error answer (schema ErrorResponse), as HttpErrorFilter writes it. */
export class ErrorResponseDto {
  @ApiProperty({ type: ErrorBodyDto }) error!: ErrorBodyDto;
}
