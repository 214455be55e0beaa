import type { FastifyRequest } from 'fastify';
import type { KeyScope } from './api-keys/key-scope';

/**
 * Who calls: what {@link ApiKeyGuard} (api-key.guard.ts) makes of an API key or a console session. Its own
 * file, below the guard, because the services the guard calls (sessions, rate limits) speak of it too.
 */
export interface Principal {
  userId: string;
  keyType: 'owner' | 'user';
  keyId?: string;
  keyPrefix?: string;
  /** What the key may do (the owner key: `full`); see {@link AllowScope}. */
  scope: KeyScope;
  /** Origins a `widget` key may be used from. */
  allowedOrigins?: readonly string[];
}

export type AuthedRequest = FastifyRequest & { principal: Principal };

/** The API key (api_keys.id) a principal stands for; null for the owner key and console sessions. */
export function apiKeyIdOf(p: Principal): string | null {
  return p.keyType === 'user' && p.keyId && !p.keyId.startsWith('session:') ? p.keyId : null;
}

/**
 * The key whose jobs are the only ones a principal may read: a widget key reads the jobs it created
 * itself (404 for any other job of its account); undefined for every other key (the account's jobs).
 */
export function readerKeyOf(p: Principal): string | undefined {
  return p.scope === 'widget' ? (p.keyId ?? '') : undefined;
}
