import IORedis, { type Redis } from 'ioredis';
import type { KeyRevocation, KeyRevocationsPort } from './key-revocations.port';

/**
 * Scaled mode: revocations travel on a Redis pub/sub channel (namespaced like the queue) to every API
 * process. Pub/sub is fire-and-forget: a process that is disconnected at that moment misses the message and
 * keeps the key until its cache entry expires (API_KEY_CACHE_TTL_S), which bounds the window.
 */
export class RedisKeyRevocations implements KeyRevocationsPort {
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly channel: string;
  private readonly handlers: Array<(r: KeyRevocation) => void> = [];

  constructor(redisUrl: string, namespace: string) {
    this.channel = `${namespace}:api-key-revocations`;
    const opts = { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2000, commandTimeout: 1000 };
    this.pub = new IORedis(redisUrl, opts);
    this.sub = new IORedis(redisUrl, { ...opts, commandTimeout: undefined, enableOfflineQueue: true });
    // Errors surface on publish(); without listeners ioredis would print every reconnect attempt.
    this.pub.on('error', () => undefined);
    this.sub.on('error', () => undefined);
    void this.sub.subscribe(this.channel).catch(() => undefined);
    this.sub.on('message', (channel: string, message: string) => {
      if (channel !== this.channel) return;
      let r: KeyRevocation;
      try {
        r = JSON.parse(message) as KeyRevocation;
      } catch {
        return;
      }
      for (const h of this.handlers) h(r);
    });
  }

  async publish(revocation: KeyRevocation): Promise<void> {
    await this.pub.publish(this.channel, JSON.stringify(revocation));
  }

  subscribe(handler: (revocation: KeyRevocation) => void): void {
    this.handlers.push(handler);
  }

  async close(): Promise<void> {
    this.pub.disconnect();
    this.sub.disconnect();
  }
}
