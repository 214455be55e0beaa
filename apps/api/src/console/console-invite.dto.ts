import { ApiProperty } from '@nestjs/swagger';

/** Response shapes of the console invite routes (the requests: console.schema.ts). */

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
