import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** Documentation shapes of the accounts routes (admin and v2 me/usage/pricing); validation lives in AccountsService. */

export class CreateUserRequestDto {
  @ApiProperty({ format: 'email', maxLength: 320, example: 'ada@example.com' }) email!: string;
  @ApiPropertyOptional({ maxLength: 200, example: 'Ada' }) name?: string;
  @ApiPropertyOptional({ minimum: 0, description: 'Initial credits, at most two decimals.', example: 100 }) credits?: number;
  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 100000, default: 0, example: 2 }) showcase_slots?: number;
}

export class UserDto {
  @ApiProperty({ example: 'usr_k3xq7a' }) id!: string;
  @ApiProperty({ example: 'ada@example.com' }) email!: string;
  @ApiProperty({ type: String, nullable: true, example: 'Ada' }) name!: string | null;
  @ApiProperty({ description: 'Balance in credits.', example: 100 }) credits!: number;
  @ApiProperty({ type: 'integer', example: 2 }) showcase_slots!: number;
}

const SCOPE_DESCRIPTION =
  "`full`: every route the account may use (keys made before scopes are full). `read_only`: GET routes of the account's own jobs, showcases, identity and usage " +
  "(status, result, embeds: the widget's attach-to-job mode). `widget`: the scope for a key in public HTML: free v1 conversions (POST /api/v1/convert) and the status and result of the jobs " +
  'that key created (404 for any other job), nothing else of the account; only from `allowed_origins` (checked against the Origin header), with the lower RATE_LIMIT_WIDGET rate limit. ' +
  'Anything else with a narrower key: 403 insufficient_scope.';

export class CreateKeyRequestDto {
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 100, example: 'shop widget' }) name?: string | null;
  @ApiPropertyOptional({ enum: ['full', 'read_only', 'widget'], default: 'full', description: SCOPE_DESCRIPTION }) scope?: string;
  @ApiPropertyOptional({
    type: [String],
    maxItems: 20,
    example: ['https://shop.example.com'],
    description: 'Widget keys only (required there): origins scheme://host[:port] the key may be used from; other keys: leave out.',
  })
  allowed_origins?: string[];
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

export class AddCreditsRequestDto {
  @ApiProperty({ minimum: 0.01, description: 'Credits to add, more than zero, at most two decimals.', example: 50 }) amount!: number;
  @ApiPropertyOptional({ maxLength: 500, example: 'monthly top-up' }) reason?: string;
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
  @ApiProperty({ enum: ['showcase.create', 'showcase.picture', 'animated-ar'] }) operation!: string;
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
