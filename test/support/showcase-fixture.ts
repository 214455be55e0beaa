import { Api, tempDir, waitFor } from './app-process';
import { startMediaServer } from './media-server';
import { startTestApp, type TestApp, type TestAppOptions } from './test-app';

/**
 * What the specs that show a showcase of pictures share (catalogue-pages, catalogue-size, size-strings,
 * gallery-walls-files): a local media server with the pictures, the service in process with a DATA_DIR of its
 * own, an owner key and private addresses allowed (so it fetches from the media server), and showcases made
 * through the API and waited for until every item is built. One copy here instead of one per spec.
 */

export type MediaServer = Awaited<ReturnType<typeof startMediaServer>>;

export interface ShowcaseFixture {
  app: TestApp;
  media: MediaServer;
  /** The owner's API (every JSON answer checked against the OpenAPI document). */
  owner: Api;
  /** Closes the app, then the media server. */
  close: () => Promise<void>;
}

export interface ShowcaseFixtureOptions {
  /** The owner API key (OWNER_API_KEY). */
  ownerKey: string;
  /** Files the media server serves besides its own (test/support/media-server.ts), by path. */
  files?: Record<string, Buffer>;
  /** More environment for the app (added to, or overriding, DATA_DIR, OWNER_API_KEY and ALLOW_PRIVATE_NETWORKS). */
  env?: Record<string, string>;
  app?: TestAppOptions;
}

export async function startShowcaseFixture(opts: ShowcaseFixtureOptions): Promise<ShowcaseFixture> {
  const media = await startMediaServer(opts.files);
  let app: TestApp;
  try {
    app = await startTestApp({ DATA_DIR: tempDir(), OWNER_API_KEY: opts.ownerKey, ALLOW_PRIVATE_NETWORKS: 'true', ...opts.env }, opts.app);
  } catch (e) {
    await media.stop();
    throw e;
  }
  return {
    app,
    media,
    owner: new Api(app.base, opts.ownerKey),
    close: async () => {
      await app.close();
      await media.stop();
    },
  };
}

export interface CreateShowcaseOptions {
  /** How long to wait for the items (default 240 s). */
  timeoutMs?: number;
  /** Wait for every item's variants to be built too (none building, no build job pending). */
  variants?: boolean;
}

/**
 * Creates a showcase (`POST /api/v2/showcases`, expecting 201) and waits until each of its items (`items` or
 * `image_urls` of `body`) is completed (and, with `variants`, their variants built); returns the showcase as
 * `GET /api/v2/showcases/{id}` shows it then. An item that fails ends the wait at once, with its error.
 */
export async function createShowcase(api: Api, body: Record<string, unknown>, opts: CreateShowcaseOptions = {}): Promise<any> {
  const created = await api.req('POST', '/api/v2/showcases', body);
  if (created.status !== 201) throw new Error(`createShowcase: ${created.status} ${JSON.stringify(created.body)}`);
  const count = ((body.items ?? body.image_urls ?? []) as unknown[]).length;
  let failed: { id: number; error?: unknown } | undefined;
  const done = await waitFor(
    async () => {
      const s = (await api.req('GET', `/api/v2/showcases/${created.body.id}`)).body;
      failed = s.items.find((i: { status: string }) => i.status === 'failed');
      const built = (i: { status: string; variants?: { status: string; build_job_id?: string | null }[] }) =>
        i.status === 'completed' && (!opts.variants || !i.variants?.some((v) => v.status === 'building' || v.build_job_id));
      return (failed || (s.items.length === count && s.items.every(built))) && s;
    },
    opts.timeoutMs ?? 240_000,
    `the ${count} items of showcase ${created.body.id}${opts.variants ? ' and their variants' : ''} to be built`,
  );
  if (failed) throw new Error(`createShowcase: item ${failed.id} failed: ${JSON.stringify(failed.error)}`);
  return done;
}
