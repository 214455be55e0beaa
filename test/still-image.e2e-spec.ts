import sharp from 'sharp';
import { Api, freePort, tempDir } from './support/app-process';
import { startTestApp, type TestApp } from './support/test-app';
import { startMediaServer } from './support/media-server';
import { readUsdz, tinyusdzParse, validateGlb, zipLocalEntries, startS3, S3_TEST_CREDENTIALS } from '@app/testing';

const OWNER = 'owner-key-for-still-image-e2e';
const apps: TestApp[] = [];
let media: Awaited<ReturnType<typeof startMediaServer>>;

async function startApp(env: Record<string, string>): Promise<Api> {
  const port = await freePort();
  const app = await startTestApp({
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: tempDir(),
    OWNER_API_KEY: OWNER,
    JOB_RETRY_BASE_MS: '50',
    ...env,
  });
  apps.push(app);
  return new Api(`http://127.0.0.1:${port}`, OWNER);
}

async function bytes(url: string, headers: Record<string, string> = {}) {
  const r = await fetch(url, { headers });
  return { status: r.status, headers: r.headers, body: Buffer.from(await r.arrayBuffer()) };
}

beforeAll(async () => {
  const bomb = await sharp({ create: { width: 11000, height: 11000, channels: 3, background: '#fff' }, limitInputPixels: false })
    .png({ compressionLevel: 9 })
    .toBuffer();
  media = await startMediaServer({ '/bomb.png': bomb });
});
afterAll(async () => {
  for (const a of apps.splice(0)) await a.close();
  await media.stop();
});

describe('still image -> GLB + USDZ (embedded, local storage)', () => {
  let api: Api;
  beforeAll(async () => {
    api = await startApp({ ALLOW_PRIVATE_NETWORKS: 'true', FETCH_TIMEOUT_MS: '1000', FETCH_MAX_BYTES: '5000000' });
  });

  it('converts a photograph and serves valid models with the right headers', async () => {
    const created = await api.req('POST', '/api/v1/convert', { image_url: `${media.base}/street.jpg` });
    expect(created.status).toBe(202);
    const done = await api.waitStatus(created.body.job_id, ['completed', 'failed']);
    expect(done).toMatchObject({ status: 'completed', progress: 100 });
    const result = await api.req('GET', `/api/v1/result/${created.body.job_id}`);
    expect(result.status).toBe(200);
    // photo-street.jpg is 500 x 338: shorter side 24 in.
    expect(result.body.dimensions).toEqual({ width_inches: 35.5, height_inches: 24 });
    const { usdz, glb } = result.body.models;
    expect(glb.url).toMatch(new RegExp(`^${api.base}/files/models/api_\\w+/model\\.glb$`));

    const g = await bytes(glb.url);
    expect(g.status).toBe(200);
    expect(g.headers.get('content-type')).toBe('model/gltf-binary');
    expect(g.headers.get('cache-control')).toContain('max-age');
    expect((await validateGlb(g.body)).numErrors).toBe(0);

    const u = await bytes(usdz.url);
    expect(u.headers.get('content-type')).toBe('model/vnd.usdz+zip');
    expect(zipLocalEntries(u.body).every((e) => e.dataOffset % 64 === 0)).toBe(true);
    const { files } = await readUsdz(u.body);
    expect([...files.keys()]).toEqual(['card.usda', 'textures/picture.jpg']);
    expect(tinyusdzParse(u.body).meshes).toHaveLength(2);

    const poster = await bytes(result.body.poster_url);
    expect(poster.headers.get('content-type')).toBe('image/jpeg');
    expect((await sharp(poster.body).metadata()).width).toBe(500);

    const etag = g.headers.get('etag')!;
    expect((await bytes(glb.url, { 'if-none-match': etag })).status).toBe(304);
    const part = await bytes(glb.url, { range: 'bytes=0-11' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 0-11/${g.body.length}`);
    expect(part.body.equals(g.body.subarray(0, 12))).toBe(true);
    expect((await bytes(glb.url, { range: `bytes=${g.body.length + 10}-` })).status).toBe(416);
    const head = await fetch(glb.url, { method: 'HEAD' });
    expect(head.headers.get('content-length')).toBe(String(g.body.length));
    expect((await bytes(`${api.base}/files/models/nope/model.glb`)).status).toBe(404);
    expect((await bytes(`${api.base}/files/..%2F..%2Fetc%2Fpasswd`)).status).toBe(404);
  });

  it('honours aspect_ratio and explicit inches', async () => {
    const a = await api.req('POST', '/api/v1/convert', { image_url: `${media.base}/street.jpg`, aspect_ratio: '2:3' });
    const b = await api.req('POST', '/api/v1/convert', {
      image_url: `${media.base}/street.jpg`,
      width_inches: 10,
      height_inches: 5.5,
      aspect_ratio: '1:1',
    });
    await api.waitStatus(a.body.job_id, ['completed']);
    await api.waitStatus(b.body.job_id, ['completed']);
    expect((await api.req('GET', `/api/v1/result/${a.body.job_id}`)).body.dimensions).toEqual({ width_inches: 24, height_inches: 36 });
    expect((await api.req('GET', `/api/v1/result/${b.body.job_id}`)).body.dimensions).toEqual({ width_inches: 10, height_inches: 5.5 });
  });

  it('answers a result request for an unfinished job with 409 job_not_finished', async () => {
    const { body } = await api.req('POST', '/api/v1/convert', { image_url: `${media.base}/slow.jpg` });
    const r = await api.req('GET', `/api/v1/result/${body.job_id}`);
    expect(r.status).toBe(409);
    expect(r.body.error).toMatchObject({ type: 'conflict', code: 'job_not_finished' });
    await api.waitStatus(body.job_id, ['completed']);
  });

  it.each([
    [{}, 'image_url'],
    [{ image_url: 'ftp://x/y.png' }, 'image_url'],
    [{ image_url: 42 }, 'image_url'],
    [{ image_url: 'https://x/y.png', aspect_ratio: '16x9' }, 'aspect_ratio'],
    [{ image_url: 'https://x/y.png', aspect_ratio: '0:9' }, 'aspect_ratio'],
    [{ image_url: 'https://x/y.png', width_inches: 10 }, 'height_inches'],
    [{ image_url: 'https://x/y.png', width_inches: 200, height_inches: 10 }, 'width_inches'],
    [{ image_url: 'https://x/y.png', colour: 'red' }, 'colour'],
  ])('rejects %j naming %s', async (body, param) => {
    const r = await api.req('POST', '/api/v1/convert', body);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ type: 'invalid_request_error', param, request_id: expect.stringMatching(/^req_/) });
  });

  it('rejects a body that is not JSON', async () => {
    const r = await fetch(`${api.base}/api/v1/convert`, {
      method: 'POST',
      headers: { 'x-api-key': OWNER, 'content-type': 'application/json' },
      body: '{nope',
    });
    expect(r.status).toBe(400);
    expect((await r.json()).error.type).toBe('invalid_request_error');
  });

  it('answers 404 for unknown jobs', async () => {
    expect((await api.req('GET', '/api/v1/status/api_doesnotexist')).status).toBe(404);
    expect((await api.req('GET', '/api/v1/result/v2_whatever')).status).toBe(404);
  });

  it.each([
    ['a 404', '/missing.jpg', 'source_not_found', 'HTTP 404'],
    ['not an image', '/page.html', 'unsupported_type', 'not a supported image'],
    ['an unsupported type', '/doc.pdf', 'unsupported_type', 'not a supported image'],
    ['a truncated file', '/truncated.jpg', 'invalid_image', 'normalise:'],
    ['a decompression bomb', '/bomb.png', 'image_too_large', '11000x11000'],
    ['a server that never answers', '/hang', 'source_timeout', 'within 1000 ms'],
  ])('fails the job with a clear message for %s', async (_name, path, code, text) => {
    const { body } = await api.req('POST', '/api/v1/convert', { image_url: `${media.base}${path}` });
    const s = await api.waitStatus(body.job_id, ['completed', 'failed']);
    expect(s.status).toBe('failed');
    expect(s.error.code).toBe(code);
    expect(s.error.message).toContain(text);
    const r = await api.req('GET', `/api/v1/result/${body.job_id}`);
    expect(r.status).toBe(409);
    expect(r.body.error.code).toBe('job_failed');
  });

  it('fails the job for a DNS failure', async () => {
    const dns = await api.req('POST', '/api/v1/convert', { image_url: 'http://no-such-host.invalid/a.jpg' });
    expect((await api.waitStatus(dns.body.job_id, ['failed'])).error.code).toBe('dns_failure');
  });

  it('keeps serving other jobs after all those failures', async () => {
    const { body } = await api.req('POST', '/api/v1/convert', { image_url: `${media.base}/street.jpg` });
    expect((await api.waitStatus(body.job_id, ['completed', 'failed'])).status).toBe('completed');
    expect((await fetch(`${api.base}/readyz`)).status).toBe(200);
  });
});

describe('fetch limits and the SSRF guard in the running service', () => {
  it('fails a source over FETCH_MAX_BYTES and a private address with the guard on', async () => {
    const small = await startApp({ ALLOW_PRIVATE_NETWORKS: 'true', FETCH_MAX_BYTES: '10000' });
    const big = await small.req('POST', '/api/v1/convert', { image_url: `${media.base}/street.jpg` });
    expect((await small.waitStatus(big.body.job_id, ['failed'])).error.code).toBe('source_too_large');

    const guarded = await startApp({});
    const hook = await guarded.req('POST', '/api/v1/convert', {
      image_url: 'https://example.com/a.jpg',
      callback_url: 'http://127.0.0.1:9/hook',
    });
    expect(hook.status).toBe(400);
    expect(hook.body.error).toMatchObject({ param: 'callback_url', code: 'callback_url_blocked' });
    for (const url of [
      `${media.base}/street.jpg`,
      'http://2130706433/a.jpg',
      'http://[::ffff:127.0.0.1]/a.jpg',
      'http://169.254.169.254/latest',
    ]) {
      const { body } = await guarded.req('POST', '/api/v1/convert', { image_url: url });
      const s = await guarded.waitStatus(body.job_id, ['failed', 'completed']);
      expect(s).toMatchObject({ status: 'failed', error: { code: 'private_address' } });
    }
  });
});

describe('S3 storage', () => {
  it('publishes models to an S3-compatible bucket and links to its public URL', async () => {
    const s3 = await startS3('ar-models');
    try {
      const api = await startApp({
        ALLOW_PRIVATE_NETWORKS: 'true',
        STORAGE_DRIVER: 's3',
        S3_ENDPOINT: s3.endpoint,
        S3_BUCKET: s3.bucket,
        S3_ACCESS_KEY_ID: S3_TEST_CREDENTIALS.accessKeyId,
        S3_SECRET_ACCESS_KEY: S3_TEST_CREDENTIALS.secretAccessKey,
      });
      const { body } = await api.req('POST', '/api/v1/convert', { image_url: `${media.base}/street.jpg` });
      expect((await api.waitStatus(body.job_id, ['completed', 'failed'])).status).toBe('completed');
      const result = await api.req('GET', `/api/v1/result/${body.job_id}`);
      expect(result.body.models.glb.url).toBe(`${s3.endpoint}/${s3.bucket}/models/${body.job_id}/model.glb`);
      const glb = await bytes(result.body.models.glb.url);
      expect(glb.status).toBe(200);
      expect(glb.headers.get('content-type')).toBe('model/gltf-binary');
      expect((await validateGlb(glb.body)).numErrors).toBe(0);
      expect((await fetch(`${api.base}/readyz`).then((r) => r.json())).checks.storage).toBe('ok');
    } finally {
      await s3.stop();
    }
  });
});
