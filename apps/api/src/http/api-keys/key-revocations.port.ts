/** A key revoked, or every key of a user (the user deleted). */
export interface KeyRevocation {
  keyId?: string;
  userId?: string;
}

/**
 * Tells every API process that keys stopped being valid, so that their {@link ApiKeyCache} drops them at
 * once instead of at the end of the cache's lifetime. Embedded mode has one process: nothing to tell.
 */
export interface KeyRevocationsPort {
  publish(revocation: KeyRevocation): Promise<void>;
  /** Called for revocations published by any process, this one included. */
  subscribe(handler: (revocation: KeyRevocation) => void): void;
  close(): Promise<void>;
}

export const KEY_REVOCATIONS = Symbol('KEY_REVOCATIONS');

/** One process: a revocation is delivered to this process's handlers only. */
export class LocalKeyRevocations implements KeyRevocationsPort {
  private readonly handlers: Array<(r: KeyRevocation) => void> = [];

  async publish(revocation: KeyRevocation): Promise<void> {
    for (const h of this.handlers) h(revocation);
  }

  subscribe(handler: (revocation: KeyRevocation) => void): void {
    this.handlers.push(handler);
  }

  async close(): Promise<void> {}
}
