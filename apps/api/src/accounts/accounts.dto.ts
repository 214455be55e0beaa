import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { SCOPE_DESCRIPTION } from './accounts.schema';

/** Documentation shapes of the accounts routes (admin and v2 me/usage/pricing); validation lives in AccountsService. */

export class UserDto {
  @ApiProperty({ example: 'usr_k3xq7a' }) id!: string;
  @ApiProperty({ example: 'ada@example.com' }) email!: string;
  @ApiProperty({ type: String, nullable: true, example: 'Ada' }) name!: string | null;
  @ApiProperty({ description: 'Balance in credits.', example: 100 }) credits!: number;
  @ApiProperty({ type: 'integer', example: 2 }) showcase_slots!: number;
}

export class ApiKeyDto {
  @ApiProperty({ example: 'key_m2q…' }) id!: string;
  @ApiProperty({ enum: ['api_key'] }) object!: string;
  @ApiProperty({ type: String, nullable: true, example: 'shop widget' }) name!: string | null;
  @ApiProperty({ enum: ['full', 'read_only', 'widget'], description: SCOPE_DESCRIPTION }) scope!: string;
  @ApiProperty({ description: 'Display prefix, shown in /api/v2/me.', example: 'sk_live_Ab3d' }) prefix!: string;
  @ApiProperty({
    type: [String],
    description: 'Origins a widget key may be used from (empty for other scopes).',
    example: ['https://shop.example.com'],
  })
  allowed_origins!: string[];
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Last request with the key (recorded at most once a minute).',
  })
  last_used_at!: string | null;
}

export class ApiKeyCreatedDto extends ApiKeyDto {
  @ApiProperty({ description: 'The secret key, shown this once (only its hash is kept).', example: 'sk_live_…' }) key!: string;
}

export class ApiKeyListDto {
  @ApiProperty({ type: [ApiKeyDto], description: 'Live (not revoked) keys, newest first.' }) data!: ApiKeyDto[];
}

export class BalanceDto {
  @ApiProperty({ description: 'The balance after the grant, in credits.', example: 150 }) balance!: number;
}

class KeyInfoDto {
  @ApiProperty({ enum: ['owner', 'user'] }) type!: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Display prefix of a per-user key; null for the owner key.',
    example: 'sk_live_Ab3d',
  })
  prefix!: string | null;
  @ApiProperty({ description: 'false for the owner key (never charged).' }) billed!: boolean;
  @ApiProperty({ enum: ['full', 'read_only', 'widget'], description: 'What the key may do (the owner key: full).' }) scope!: string;
}

class SlotsDto {
  @ApiProperty({ type: 'integer', example: 1 }) used!: number;
  @ApiProperty({ type: 'integer', example: 2 }) total!: number;
  @ApiProperty({ description: 'false for the owner key (not limited by slots).' }) limited!: boolean;
}

export class MeDto {
  @ApiProperty({ example: 'usr_k3xq7a' }) id!: string;
  @ApiProperty({ example: 'ada@example.com' }) email!: string;
  @ApiProperty({ type: String, nullable: true }) name!: string | null;
  @ApiProperty({ example: 93 }) credits!: number;
  @ApiProperty({ type: KeyInfoDto }) key!: KeyInfoDto;
  @ApiProperty({ type: SlotsDto }) showcase_slots!: SlotsDto;
}

class LedgerEntryDto {
  @ApiProperty({ type: 'integer', example: 17 }) id!: number;
  @ApiProperty({ enum: ['grant', 'charge', 'refund'] }) kind!: string;
  @ApiProperty({ description: 'Credits; negative for charges.', example: -5 }) amount!: number;
  @ApiProperty({ type: Number, nullable: true, example: 95 }) balance_after!: number | null;
  @ApiProperty({ type: String, nullable: true, example: 'showcase.create' }) operation!: string | null;
  @ApiProperty({ type: String, nullable: true }) job_id!: string | null;
  @ApiProperty({ type: String, nullable: true }) reason!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

class UsageTotalDto {
  @ApiProperty({ example: 'showcase.create' }) operation!: string;
  @ApiProperty({ enum: ['grant', 'charge', 'refund'] }) kind!: string;
  @ApiProperty({ example: -5 }) amount!: number;
  @ApiProperty({ type: 'integer', example: 1 }) count!: number;
}

export class UsageDto {
  @ApiProperty({ type: [LedgerEntryDto], description: 'Ledger entries, newest first.' }) data!: LedgerEntryDto[];
  @ApiProperty() has_more!: boolean;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Pass as ?before= for the next page.' }) next_before!: number | null;
  @ApiProperty({ type: [UsageTotalDto] }) totals!: UsageTotalDto[];
}

export class PriceLineDto {
  @ApiProperty({ example: 'ai_motion' }) item!: string;
  @ApiProperty({ example: 12.5 }) credits!: number;
}

class PricedOperationDto {
  @ApiProperty({ enum: ['showcase.create', 'showcase.picture', 'showcase.wall', 'animated-ar'] }) operation!: string;
  @ApiPropertyOptional({ type: 'integer', description: 'showcase.picture: per picture.' }) count?: number;
  @ApiPropertyOptional({ enum: ['image', 'video'], description: 'animated-ar.' }) source?: string;
  @ApiPropertyOptional({ description: 'animated-ar.' }) remove_background?: boolean;
  @ApiProperty({ example: 5 }) credits!: number;
  @ApiProperty({ type: [PriceLineDto] }) lines!: PriceLineDto[];
}

export class PriceListDto {
  @ApiProperty({ description: 'Name of the configured pricing policy.', example: 'default' }) policy!: string;
  @ApiProperty({ description: 'false for the owner key.' }) billed!: boolean;
  @ApiProperty({ type: [PricedOperationDto] }) operations!: PricedOperationDto[];
}
