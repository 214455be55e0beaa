/**
 * What the host lets the repositories see of the process around them, without persistence depending on
 * the host: the request being served (stored on the jobs it creates) and ledger movements (counted for
 * operators). Each is optional; repositories built without hooks behave as before.
 */
export interface RepositoryHooks {
  /** Id of the API request (or job) being served now, if any. */
  requestId?(): string | undefined;
  /** Called after a transaction that charged `cents` (> 0) has committed. */
  charged?(cents: number): void;
  /** Called after a transaction that refunded `cents` (> 0) has committed; never for a replayed refund. */
  refunded?(cents: number): void;
}

/** Tells the hooks what a committed transaction charged; answers what it created. */
export function countCharged<T extends { chargedCents: number }>(hooks: RepositoryHooks, created: T): T {
  if (created.chargedCents > 0) hooks.charged?.(created.chargedCents);
  return created;
}
