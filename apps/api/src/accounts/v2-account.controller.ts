import { Controller, Get, Query, Req, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { MeDto, PriceListDto, UsageDto } from './accounts.dto';
import { ApiKeyGuard, type AuthedRequest } from '../http/api-key.guard';
import { AllowScope } from '../http/api-keys/key-scope';
import { AccountsService } from './accounts.service';
import { UsageQuery } from './accounts.schema';
import { QueryParams } from '../http/request-schema';

@ApiTags('v2')
@ApiSecurity('api-key')
@Controller('api/v2')
@UseGuards(ApiKeyGuard)
export class V2AccountController {
  constructor(private readonly accounts: AccountsService) {}

  @Get('me')
  @AllowScope('read_only')
  @ApiResponse({ status: 200, type: MeDto })
  @ApiOperation({ summary: 'Identity of the key owner, key type and prefix, credit balance, showcase slots' })
  me(@Req() req: AuthedRequest) {
    return this.accounts.me(req.principal);
  }

  @Get('usage')
  @AllowScope('read_only')
  @QueryParams(UsageQuery)
  @ApiResponse({ status: 200, type: UsageDto })
  @ApiOperation({ summary: 'API usage view: ledger entries (newest first, ?limit=&before=) and totals per operation' })
  usage(@Req() req: AuthedRequest, @Query() q: unknown) {
    return this.accounts.usage(req.principal.userId, q);
  }

  @Get('pricing')
  @AllowScope('read_only')
  @ApiResponse({ status: 200, type: PriceListDto })
  @ApiOperation({ summary: 'Prices in credits of every billable operation under the configured policy (billed: false for the owner key)' })
  pricing(@Req() req: AuthedRequest) {
    return this.accounts.priceList(req.principal);
  }
}
