import { Module } from '@nestjs/common';
import { HttpModule } from '../http/http.module';
import { ConsoleAssets } from './console-assets.service';
import { ConsoleInviteController } from './console-invite.controller';
import { ConsoleInvites } from './console-invites.service';
import { ConsolePagesService } from './console-pages.service';
import { ConsoleController } from './console.controller';

/** The console (/console pages and client files) and the operators' invite routes; sessions come from HttpModule. */
@Module({
  imports: [HttpModule],
  controllers: [ConsoleInviteController, ConsoleController],
  providers: [ConsoleInvites, ConsolePagesService, ConsoleAssets],
})
export class ConsoleModule {}
