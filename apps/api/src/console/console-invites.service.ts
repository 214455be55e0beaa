import { Injectable } from '@nestjs/common';
import { AccountRepository, type ConsoleRole, ConsoleRepository } from '@app/persistence';
import { parseInput } from '@app/schema';
import { InviteBody, InviteByEmailBody } from './console.schema';
import { ConsoleSessionService } from './console-session.service';

/** Validates invite requests and finds or creates the invited user. */
@Injectable()
export class ConsoleInvites {
  constructor(
    private readonly sessions: ConsoleSessionService,
    private readonly console: ConsoleRepository,
    private readonly accounts: AccountRepository,
  ) {}

  inviteUser(userId: string, body: unknown) {
    return this.sessions.invite(userId, parseInput(InviteBody, body)?.role as ConsoleRole | undefined);
  }

  async inviteEmail(body: unknown) {
    const { email, name, role: r } = parseInput(InviteByEmailBody, body ?? {});
    const user = (await this.console.findUserByEmail(email)) ?? (await this.accounts.createUser({ email, name: name ?? null }));
    return this.sessions.invite(user.id, r as ConsoleRole | undefined);
  }
}
