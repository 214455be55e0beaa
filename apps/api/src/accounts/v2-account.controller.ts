import { Controller, Get, Query, Req, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard, type AuthedRequest } from '../http/api-key.guard';
import { AccountsService } from './accounts.service';

@ApiTags('v2')
@ApiSecurity('api-key')
@Controller('api/v2')
@UseGuards(ApiKeyGuard)
export class V2AccountController {
  constructor(private readonly accounts: AccountsService) {}

  @Get('me')
  @ApiOperation({ summary: 'Identity of the key owner, key type and prefix, credit balance, showcase slots' })
  me(@Req() req: AuthedRequest) {
    return this.accounts.me(req.principal);
  }

  @Get('usage')
  @ApiOperation({ summary: 'API usage view: ledger entries (newest first, ?limit=&before=) and totals per operation' })
  usage(@Req() req: AuthedRequest, @Query() q: { limit?: string; before?: string }) {
    return this.accounts.usage(req.principal.userId, q);
  }

  @Get('pricing')
  @ApiOperation({ summary: 'Prices in credits of every billable operation under the configured policy (billed: false for the owner key)' })
  pricing(@Req() req: AuthedRequest) {
    return this.accounts.priceList(req.principal);
  }
}
