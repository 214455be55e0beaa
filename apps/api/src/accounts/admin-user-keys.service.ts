import { Injectable } from '@nestjs/common';
import { AccountRepository } from '@app/persistence';
import { ApiError } from '../http/api-error';
import { keyView } from './accounts.service';

/** A user's live API keys for operators (never the secrets). */
@Injectable()
export class AdminUserKeysService {
  constructor(private readonly accounts: AccountRepository) {}

  async list(userId: string) {
    const u = /^usr_[a-z2-7]{1,40}$/.test(userId) ? await this.accounts.findUser(userId) : null;
    if (!u) throw ApiError.notFound(`user ${userId.slice(0, 60)}`);
    return { data: (await this.accounts.listLiveKeys(u.id)).map(keyView) };
  }
}
