import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** Documentation shapes of the console invite routes; validation lives in the controller's service. */

const ROLE =
  "`customer` (default; the console of the user's own account) or `owner` (the operator's console: the admin pages and the owner key's rights). An invite never lowers a role.";

export class InviteRequestDto {
  @ApiPropertyOptional({ enum: ['customer', 'owner'], description: ROLE }) role?: string;
}

export class InviteByEmailRequestDto {
  @ApiProperty({
    format: 'email',
    maxLength: 320,
    example: 'ada@example.com',
    description: 'The user with this email is invited; one is created when there is none.',
  })
  email!: string;
  @ApiPropertyOptional({ maxLength: 200, example: 'Ada', description: 'Name of a user created now.' }) name?: string;
  @ApiPropertyOptional({ enum: ['customer', 'owner'], description: ROLE }) role?: string;
}

export class InviteDto {
  @ApiProperty({
    description: 'Single use, valid 7 days: opening it lets the person set a password and signs them in. Shown only now (stored hashed).',
    example: 'https://ar.example.com/console/invite?token=Zk3…',
  })
  invite_url!: string;
  @ApiProperty({ format: 'date-time' }) expires_at!: string;
  @ApiProperty({ example: 'usr_k3xq7a' }) user_id!: string;
  @ApiProperty({ example: 'ada@example.com' }) email!: string;
  @ApiProperty({ enum: ['customer', 'owner'] }) role!: string;
}
