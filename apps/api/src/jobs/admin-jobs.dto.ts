import { ApiProperty } from '@nestjs/swagger';
import { JOB_STATES } from '@app/pipeline';

/** Documentation shapes of the operators' job, user and queue routes; validation lives in AdminJobsService. */

class AdminJobErrorDto {
  @ApiProperty({ example: 'fetch_failed' }) code!: string;
  @ApiProperty({ example: 'image_url answered 404' }) message!: string;
}

export class AdminJobDto {
  @ApiProperty({ example: 'v2_k3xq7a…' }) id!: string;
  @ApiProperty({ description: 'What was asked for, e.g. v1.convert, animated-ar, callback.', example: 'v1.convert' }) kind!: string;
  @ApiProperty({ enum: JOB_STATES }) status!: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The owning user (`service` for the owner key and callbacks).',
    example: 'usr_k3xq7a',
  })
  user_id!: string | null;
  @ApiProperty({ minimum: 0, maximum: 100 }) progress!: number;
  @ApiProperty({ type: 'integer', description: 'Runs started for the current try.' }) attempts!: number;
  @ApiProperty({ type: AdminJobErrorDto, nullable: true }) error!: AdminJobErrorDto | null;
  @ApiProperty({ description: 'A cancel was asked for and the job has not stopped yet, or was cancelled.' }) cancel_requested!: boolean;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) started_at!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) finished_at!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'X-Request-Id of the request that created it.' }) request_id!: string | null;
}

export class AdminJobListDto {
  @ApiProperty({ type: [AdminJobDto], description: 'Newest first.' }) data!: AdminJobDto[];
  @ApiProperty({ description: 'More jobs match than `limit`: narrow the filter (e.g. an earlier `since`).' }) has_more!: boolean;
}

class AdminUserDto {
  @ApiProperty({ example: 'usr_k3xq7a' }) id!: string;
  @ApiProperty({ example: 'ada@example.com' }) email!: string;
  @ApiProperty({ type: String, nullable: true, example: 'Ada' }) name!: string | null;
  @ApiProperty({ description: 'Balance in credits.', example: 100 }) credits!: number;
  @ApiProperty({ type: 'integer', example: 2 }) showcase_slots!: number;
  @ApiProperty({ description: "The service's own user (owner key jobs, callbacks)." }) internal!: boolean;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export class AdminUserListDto {
  @ApiProperty({ type: [AdminUserDto], description: 'Oldest first.' }) data!: AdminUserDto[];
  @ApiProperty() has_more!: boolean;
}

class QueueCountsDto {
  @ApiProperty({ type: 'integer' }) waiting!: number;
  @ApiProperty({ type: 'integer' }) active!: number;
  @ApiProperty({ type: 'integer', description: "Waiting for a retry's backoff." }) delayed!: number;
  @ApiProperty({ type: 'integer', description: 'Out of attempts and still kept by the backend (0 where none are kept).' }) failed!: number;
}

class OldestWaitingDto {
  @ApiProperty() job_id!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ description: 'Seconds since it was created.' }) age_s!: number;
}

export class AdminQueueDto {
  @ApiProperty({ enum: ['in-process', 'bull'] }) driver!: string;
  @ApiProperty({ type: QueueCountsDto, description: 'Messages by state, as the queue backend counts them.' }) queue!: QueueCountsDto;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'integer' },
    description: 'Jobs in the database by status (every status listed).',
    example: { queued: 2, converting: 1, completed: 40, failed: 3 },
  })
  jobs!: Record<string, number>;
  @ApiProperty({ type: OldestWaitingDto, nullable: true, description: 'The longest-waiting queued job; null when none waits.' })
  oldest_waiting!: OldestWaitingDto | null;
}
