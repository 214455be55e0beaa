import { Controller, Get, Param, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard, OwnerKeyGuard } from '../http/api-key.guard';
import { ApiKeyListDto } from './accounts.dto';
import { AdminUserKeysService } from './admin-user-keys.service';

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
