import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, UseGuards, UseInterceptors } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiKeyCreatedDto, BalanceDto, UsageDto, UserDto } from './accounts.dto';
import { AddCreditsBody, CreateKeyBody, CreateUserBody, UsageQuery } from './accounts.schema';
import { JsonBody, QueryParams } from '../http/request-schema';
import { ApiKeyGuard, OwnerKeyGuard } from '../http/api-key.guard';
import { IdempotencyInterceptor } from '../http/idempotency/idempotency.interceptor';
import { AccountsService } from './accounts.service';

/** Operators' API, owner key only. These paths are fixed (external tests use them). */
@ApiTags('admin')
@ApiSecurity('api-key')
@Controller('api/admin')
@UseGuards(ApiKeyGuard, OwnerKeyGuard)
export class AdminController {
  constructor(private readonly accounts: AccountsService) {}

  @Post('users')
  @HttpCode(201)
  @UseInterceptors(IdempotencyInterceptor)
  @ApiOperation({ summary: 'Create a user {email, name?, credits?, showcase_slots?}' })
  @JsonBody(CreateUserBody)
  @ApiResponse({ status: 201, type: UserDto })
  @ApiResponse({ status: 409, description: 'email_taken' })
  createUser(@Body() body: unknown) {
    return this.accounts.createUser(body);
  }

  @Post('users/:id/keys')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Create an API key (the only time it is shown)',
    description: 'Body (optional): {name?, scope? (default full), allowed_origins? (widget keys)}.',
  })
  @JsonBody(CreateKeyBody, { required: false })
  @ApiResponse({ status: 201, type: ApiKeyCreatedDto })
  createKey(@Param('id') id: string, @Body() body: unknown) {
    return this.accounts.createKey(id, body);
  }

  // Not on key creation: a stored answer would keep the secret key, which we only ever store hashed.
  @Post('users/:id/credits')
  @HttpCode(200)
  @UseInterceptors(IdempotencyInterceptor)
  @ApiOperation({ summary: 'Grant credits {amount, reason?}' })
  @JsonBody(AddCreditsBody)
  @ApiResponse({ status: 200, type: BalanceDto })
  addCredits(@Param('id') id: string, @Body() body: unknown) {
    return this.accounts.addCredits(id, body);
  }

  @Delete('keys/:id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Revoke a key' })
  @ApiResponse({ status: 204, description: 'Revoked; the key is refused from now on.' })
  async revoke(@Param('id') id: string): Promise<void> {
    await this.accounts.revokeKey(id);
  }

  @Get('users/:id/usage')
  @ApiOperation({ summary: "A user's ledger entries and totals" })
  @QueryParams(UsageQuery)
  @ApiResponse({ status: 200, type: UsageDto })
  usage(@Param('id') id: string, @Query() q: unknown) {
    return this.accounts.usage(id, q);
  }
}
