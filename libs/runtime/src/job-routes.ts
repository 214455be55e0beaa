import type { AppConfig } from '@app/config';
import type { PipelineRegistry } from '@app/pipeline';

/** Job kinds the API creates (and showcase.picture, a showcase's v2.picture jobs), and the pipeline each runs by default. Operators re-route in CONFIG_FILE. */
export const DEFAULT_ROUTES: Readonly<Record<string, string>> = {
  'v1.convert': 'still-image',
  'v2.picture': 'still-image',
  // A showcase item is a v2.picture job; its pipeline also makes the pages' thumbnails.
  'showcase.picture': 'showcase-picture',
  // Some variants of a showcase item rebuilt from its stored texture (v2.picture jobs too).
  'showcase.variants': 'showcase-variants',
  // A saved gallery wall of a showcase's pictures (a v2.picture job too, refunded when it fails).
  'showcase.wall': 'gallery-wall',
  'v2.animated-ar': 'animated-ar',
  callback: 'callback',
};

/** The kinds jobs are stored with (`showcase.picture`, `showcase.variants` and `showcase.wall` are routes: their jobs are `v2.picture`). */
export const JOB_KINDS: readonly string[] = ['v1.convert', 'v2.picture', 'v2.animated-ar', 'callback'];

/**
 * The route table: defaults overridden by CONFIG_FILE `pipelines`, unknown kinds refused. Showcase pictures
 * follow an operator's `v2.picture` route unless `showcase.picture` is routed too: before they had a route
 * of their own they ran v2.picture's, and a configuration written then keeps doing what it did.
 */
export function resolveRoutes(config: AppConfig): Readonly<Record<string, string>> {
  const configured = config.plugins.pipelines;
  for (const kind of Object.keys(configured)) {
    if (!(kind in DEFAULT_ROUTES)) {
      throw new Error(`config: "pipelines" names unknown job kind "${kind}" (known: ${Object.keys(DEFAULT_ROUTES).join(', ')})`);
    }
  }
  const inherited: Record<string, string> =
    configured['v2.picture'] && !configured['showcase.picture'] ? { 'showcase.picture': configured['v2.picture'] } : {};
  return { ...DEFAULT_ROUTES, ...inherited, ...configured };
}

/** Resolves a job kind to its pipeline id; checked against the registry at boot. */
export class JobRoutes {
  private readonly routes: Readonly<Record<string, string>>;

  constructor(config: AppConfig, registry: PipelineRegistry) {
    this.routes = resolveRoutes(config);
    for (const [kind, id] of Object.entries(this.routes)) {
      if (!registry.has(id)) {
        throw new Error(
          `config: job kind "${kind}" routes to pipeline "${id}", which no plugin defines (known: ${registry.pipelineIds().join(', ')})`,
        );
      }
    }
  }

  pipelineFor(kind: string): string {
    const id = this.routes[kind];
    if (!id) throw new Error(`routes: unknown job kind "${kind}"`);
    return id;
  }
}
