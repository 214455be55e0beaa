import { Body, Controller, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard, OwnerKeyGuard } from '../http/api-key.guard';
import { InviteDto } from './console-invite.dto';
import { InviteBody, InviteByEmailBody } from './console.schema';
import { JsonBody } from '../http/request-schema';
import { ConsoleInvites } from './console-invites.service';

/** Console invites (operators): a single-use link that lets a user set a password and sign in to /console. */
@ApiTags('admin')
@ApiSecurity('api-key')
@Controller('api/admin')
@UseGuards(ApiKeyGuard, OwnerKeyGuard)
export class ConsoleInviteController {
  constructor(private readonly invites: ConsoleInvites) {}

  @Post('users/:id/invite')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Invite a user to the console',
    description: 'A new single-use invite URL, valid 7 days; earlier invites of the user stay valid until used or expired.',
  })
  @JsonBody(InviteBody, { required: false })
  @ApiResponse({ status: 201, type: InviteDto })
  @ApiResponse({ status: 404, description: 'No such user.' })
  invite(@Param('id') id: string, @Body() body: unknown) {
    return this.invites.inviteUser(id, body);
  }

  @Post('invites')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Invite an email to the console (the user is created when missing)',
    description: "What `npm run admin -- users invite EMAIL` calls; with role owner it makes the operator's own console account.",
  })
  @JsonBody(InviteByEmailBody)
  @ApiResponse({ status: 201, type: InviteDto })
  inviteEmail(@Body() body: unknown) {
    return this.invites.inviteEmail(body);
  }
}
