import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard, type AuthedRequest } from '../http/api-key.guard';
import { ErrorResponseDto } from '../http/error.dto';
import { JsonBody } from '../http/request-schema';
import { ApiKeyCreatedDto, ApiKeyListDto } from './accounts.dto';
import { CreateKeyBody } from './accounts.schema';
import { AccountsService } from './accounts.service';

/** Self-service API keys of the caller's account; full keys only (a narrower key cannot widen itself). */
@ApiTags('v2')
@ApiSecurity('api-key')
@Controller('api/v2/keys')
@UseGuards(ApiKeyGuard)
export class V2KeysController {
  constructor(private readonly accounts: AccountsService) {}

  @Get()
  @ApiOperation({ summary: "The account's live API keys: name, scope, prefix, allowed origins, created, last used (never the secret)" })
  @ApiResponse({ status: 200, type: ApiKeyListDto })
  list(@Req() req: AuthedRequest) {
    return this.accounts.listOwnKeys(req.principal);
  }

  // Not idempotent on purpose: a stored answer would keep the secret key, which is only ever stored hashed.
  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Create an API key for the account (the secret is shown this once)',
    description: 'A `widget` key needs allowed_origins: it is meant for public HTML (docs/api.md, the widget).',
  })
  @JsonBody(CreateKeyBody, { required: false })
  @ApiResponse({ status: 201, type: ApiKeyCreatedDto })
  create(@Req() req: AuthedRequest, @Body() body: unknown) {
    return this.accounts.createOwnKey(req.principal, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({
    summary: "Revoke one of the account's keys",
    description:
      "Refused from then on, in every API process at once. The account's last full key needs ?force=true (without a full key no key can manage keys).",
  })
  @ApiQuery({ name: 'force', required: false, schema: { type: 'boolean', default: false }, description: 'Also revoke the last full key.' })
  @ApiResponse({ status: 204, description: 'Revoked.' })
  @ApiResponse({ status: 409, type: ErrorResponseDto, description: "last_full_key: the account's last full key; repeat with ?force=true." })
  async revoke(@Req() req: AuthedRequest, @Param('id') id: string, @Query('force') force?: string): Promise<void> {
    await this.accounts.revokeOwnKey(req.principal, id, force === 'true' || force === '1');
  }
}
