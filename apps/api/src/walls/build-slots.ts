import { ApiError } from '../http/api-error';

/**
 * At most `size()` builds at once in this process, the others waiting their turn in order: a finished build
 * hands its slot straight to the next, so the cap always holds. More than `maxWaiting` waiting: ApiError 503
 * `busy` with Retry-After, rather than a queue that grows without end.
 *
 * @example
 * const slots = new BuildSlots(() => config.visitorWalls.concurrency, 16);
 * const files = await slots.run(() => buildAndStore(plan));
 */
export class BuildSlots {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly size: () => number,
    private readonly maxWaiting: number,
  ) {}

  /** Builds running and waiting now. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.running < this.size()) this.running++;
    else if (this.waiting.length >= this.maxWaiting)
      throw new ApiError(
        503,
        'api_error',
        'busy',
        'too many gallery walls are being built right now; try again in a few seconds',
        undefined,
        {
          'retry-after': '5',
        },
      );
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await fn();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
