import { ApiProperty } from '@nestjs/swagger';

export class AliveDto {
  @ApiProperty({ enum: ['ok'] }) status!: string;
}

class ReadyChecksDto {
  @ApiProperty({ description: '"ok" or "unavailable: <reason>".', example: 'ok' }) database!: string;
  @ApiProperty({ example: 'ok' }) queue!: string;
  @ApiProperty({ example: 'ok' }) storage!: string;
}

export class ReadyDto {
  @ApiProperty({ enum: ['ready', 'not_ready'] }) status!: string;
  @ApiProperty({ enum: ['in-process', 'bull'], description: 'Queue driver in use.' }) queue!: string;
  @ApiProperty({ type: ReadyChecksDto }) checks!: ReadyChecksDto;
}
