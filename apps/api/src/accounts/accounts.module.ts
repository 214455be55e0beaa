import { Module } from '@nestjs/common';
import { HttpModule } from '../http/http.module';
import { AccountsService } from './accounts.service';
import { AdminUserKeysController } from './admin-user-keys.controller';
import { AdminUserKeysService } from './admin-user-keys.service';
import { AdminController } from './admin.controller';
import { V2AccountController } from './v2-account.controller';
import { V2KeysController } from './v2-keys.controller';

/** Accounts: the caller's identity, usage, prices and keys (/api/v2/me, /keys…) and the operators' users, keys and credits (/api/admin). */
@Module({
  imports: [HttpModule],
  controllers: [AdminController, V2AccountController, V2KeysController, AdminUserKeysController],
  providers: [AccountsService, AdminUserKeysService],
})
export class AccountsModule {}
