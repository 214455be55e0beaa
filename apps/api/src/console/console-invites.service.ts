import { Injectable } from '@nestjs/common';
import { AccountRepository, type ConsoleRole, ConsoleRepository } from '@app/persistence';
import { ApiError } from '../http/api-error';
import { ConsoleSessionService } from './console-session.service';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function role(body: Record<string, unknown>): ConsoleRole | undefined {
  if (body.role === undefined) return undefined;
  if (body.role !== 'customer' && body.role !== 'owner') throw ApiError.invalid('role', 'role: customer or owner');
  return body.role;
}

function object(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw ApiError.invalid('body', 'the body must be a JSON object');
  return body as Record<string, unknown>;
}

/** Validates invite requests and finds or creates the invited user. */
@Injectable()
export class ConsoleInvites {
  constructor(
    private readonly sessions: ConsoleSessionService,
    private readonly console: ConsoleRepository,
    private readonly accounts: AccountRepository,
  ) {}

  inviteUser(userId: string, body: unknown) {
    return this.sessions.invite(userId, role(object(body)));
  }

  async inviteEmail(body: unknown) {
    const b = object(body);
    const email = typeof b.email === 'string' ? b.email.trim() : '';
    if (!EMAIL.test(email) || email.length > 320) throw ApiError.invalid('email', 'email: must be an email address');
    if (b.name !== undefined && (typeof b.name !== 'string' || b.name.length > 200))
      throw ApiError.invalid('name', 'name: must be a string of at most 200 characters');
    const r = role(b);
    const user =
      (await this.console.findUserByEmail(email)) ??
      (await this.accounts.createUser({ email, name: (b.name as string | undefined) ?? null }));
    return this.sessions.invite(user.id, r);
  }
}
