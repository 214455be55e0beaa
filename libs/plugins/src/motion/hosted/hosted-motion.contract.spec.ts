import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describeMotionProviderContract } from '@image-ar/plugin-sdk/testing';
import { loadConfig } from '@app/config';
import { createContainer } from '@app/pipeline';
import { LocalStorageAdapter, type StoragePort } from '@app/storage';
import { tempDir, type FakeProviderId, type FakeProviders, startFakeProviders } from '@app/testing';
import { registerServices } from '../../services';
import { MOTION_PROVIDER, type MotionProvider } from '../motion-provider.port';
import { hostedMotionPlugin } from './hosted-motion.plugin';

/**
 * The five built-in hosted motion adapters, booted the way the service boots them and pointed at local
 * fakes of their APIs (libs/testing/src/fake-providers.ts), pass the motion provider contract kit of
 * @image-ar/plugin-sdk: what a team wrapping its own model server runs too.
 */
const MODELS: Record<FakeProviderId, string> = {
  replicate: 'replicate:kwaivgi/kling-v2.1',
  runway: 'runway:gen4_turbo',
  luma: 'luma:ray-2',
  fal: 'fal:fal-ai/kling-video/v2.1/standard/image-to-video',
  veo: 'veo:veo-3.0-fast-generate-001',
};

let fakes: FakeProviders;
let storage: StoragePort;
let files: Server;

beforeAll(async () => {
  fakes = await startFakeProviders();
  // Storage served over HTTP as the API serves /files: Luma and fal fetch the still from it.
  files = createServer((req, res) => {
    void (async () => {
      const key = req.url!.replace(/^\/files\//, '');
      const stat = await storage.stat(key).catch(() => null);
      if (!stat) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': stat.contentType, 'content-length': stat.size });
      (await storage.read(key)).pipe(res);
    })();
  });
  await new Promise<void>((r) => files.listen(0, '127.0.0.1', r));
  storage = new LocalStorageAdapter(
    join(tempDir('hosted-contract-'), 'storage'),
    `http://127.0.0.1:${(files.address() as AddressInfo).port}`,
  );
});
afterAll(async () => {
  await fakes.stop();
  await new Promise((r) => files.close(r));
});

async function hostedProvider(id: FakeProviderId): Promise<MotionProvider> {
  const config = loadConfig({ DATA_DIR: tempDir('hosted-contract-cfg-'), ...fakes.env(), MOTION_POLL_INTERVAL_MS: '20' });
  const c = createContainer();
  registerServices(c, { config, storage });
  await hostedMotionPlugin.register(c, {});
  const provider = c.resolveAll<MotionProvider>(MOTION_PROVIDER).find((p) => p.id === id);
  if (!provider) throw new Error(`hosted provider ${id} not registered`);
  return provider;
}

for (const id of Object.keys(MODELS) as FakeProviderId[]) {
  describeMotionProviderContract(() => hostedProvider(id), {
    name: `hosted ${id} (built in, against a local fake of its API)`,
    models: [MODELS[id]],
    storage: () => storage,
    maxPollIntervalMs: 50,
  });
}
