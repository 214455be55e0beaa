import { Controller, Get, Injectable, Param, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { AccountRepository } from '@app/persistence';
import { ApiError } from '../http/api-error';
import { ApiKeyGuard, OwnerKeyGuard } from '../http/api-key.guard';
import { ApiKeyListDto } from './accounts.dto';
import { keyView } from './accounts.service';

@Injectable()
export class AdminUserKeysService {
  constructor(private readonly accounts: AccountRepository) {}

  async list(userId: string) {
    const u = /^usr_[a-z2-7]{1,40}$/.test(userId) ? await this.accounts.findUser(userId) : null;
    if (!u) throw ApiError.notFound(`user ${userId.slice(0, 60)}`);
    return { data: (await this.accounts.listLiveKeys(u.id)).map(keyView) };
  }
}

/** A user's live keys for operators (to revoke one with DELETE /api/admin/keys/{id}); the console's Users page. */
@ApiTags('admin')
@ApiSecurity('api-key')
@Controller('api/admin')
@UseGuards(ApiKeyGuard, OwnerKeyGuard)
export class AdminUserKeysController {
  constructor(private readonly keys: AdminUserKeysService) {}

  @Get('users/:id/keys')
  @ApiOperation({ summary: "A user's live API keys (never the secrets), newest first" })
  @ApiResponse({ status: 200, type: ApiKeyListDto })
  @ApiResponse({ status: 404, description: 'No such user.' })
  list(@Param('id') id: string) {
    return this.keys.list(id);
  }
}
