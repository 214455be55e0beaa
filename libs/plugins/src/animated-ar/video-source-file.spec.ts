import {
  closeSync,
  createReadStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@app/config';
import type { StageContext } from '@app/pipeline';
import { fakeStageContext } from '@app/testing';
import { fetchSourceToFile } from '../fetch/fetch-source';
import { createAnimatedSourceStage, type AnimatedSource } from './animated-source.stage';
import { createFramesStage, type SourceFrames } from './frames.stage';
import { JOB_DIR_PREFIX, jobTempDir, sweepStaleJobDirs } from './job-temp';

const ROOT = join(__dirname, '../../../..');
const MB = 1024 * 1024;
const work = mkdtempSync(join(tmpdir(), 'video-file-spec-'));
const config = loadConfig({ DATA_DIR: work, ALLOW_PRIVATE_NETWORKS: 'true', ANIMATION_MAX_FRAME_PX: '256', ANIMATION_VIDEO_FPS: '10' });
let server: Server;
let base: string;
/**
 * The stage as configured, fetching over plain http: the test origin has no certificate this process
 * trusts (https itself is covered by test/animated-ar.e2e-spec.ts). Streaming, cap and type checks are the
 * real ones.
 */
const sourceStage = (c = config) =>
  createAnimatedSourceStage(c, {
    toFile: (url, file, opts) => fetchSourceToFile(url.replace(/^https:/, 'http:'), file, { ...opts, strict: false }),
  });

/**
 * A real 2 s clip followed by a top-level `free` box padding the file to `bytes` (players and ffprobe skip
 * it): 150 MB on the wire and on disk, written in 1 MB steps so the test itself stays small.
 */
function paddedMp4(path: string, bytes: number): void {
  const clip = readFileSync(join(ROOT, 'test/fixtures/media/clip-city-2s.mp4'));
  const fd = openSync(path, 'w');
  writeSync(fd, clip);
  const pad = bytes - clip.length;
  const header = Buffer.alloc(8);
  header.writeUInt32BE(pad, 0);
  header.write('free', 4, 'latin1');
  writeSync(fd, header);
  const zeros = Buffer.alloc(MB);
  for (let left = pad - 8; left > 0; left -= MB) writeSync(fd, zeros, 0, Math.min(MB, left));
  closeSync(fd);
}

beforeAll(async () => {
  paddedMp4(join(work, 'big.mp4'), 150 * MB);
  // Right magic bytes, garbage after: downloads, then fails in ffprobe.
  const broken = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(4000, 7)]);
  const files: Record<string, string> = { '/big.mp4': join(work, 'big.mp4') };
  server = createServer((req, res) => {
    if (req.url === '/broken.webm') return void res.writeHead(200, { 'content-length': broken.length }).end(broken);
    if (req.url === '/page.html') return void res.writeHead(200).end('<!doctype html><html><body>not a video</body></html>');
    // `?chunked`: no Content-Length, so only the count on the wire can stop it.
    const [path, query] = (req.url ?? '').split('?');
    const file = files[path];
    if (!file) return void res.writeHead(404).end();
    res.writeHead(200, query === 'chunked' ? {} : { 'content-length': statSync(file).size });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 120_000);
afterAll(async () => {
  await new Promise((r) => server.close(r));
  rmSync(work, { recursive: true, force: true });
});

function context(jobId: string, url: string, outputs: Record<string, unknown> = {}): StageContext {
  return fakeStageContext({ job: { id: jobId, input: { video_url: url } }, outputs, status: 'downloading' });
}

describe('video sources stream to a per-job temp file', () => {
  it('a 150 MB video goes through animated-source + frames with flat memory, and its temp folder is gone after', async () => {
    const jobId = 'job-big-video';
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    try {
      const src = (await sourceStage().run(context(jobId, `${base}/big.mp4`))) as AnimatedSource;
      expect(src.bytes).toBeUndefined();
      expect(src.type.kind).toBe('video');
      expect('size' in src && src.size).toBe(150 * MB);
      expect('file' in src && statSync(src.file).size).toBe(150 * MB);
      expect(existsSync(jobTempDir(jobId))).toBe(true);
      const frames = (await createFramesStage(config).run(context(jobId, `${base}/big.mp4`, { 'animated-source': src }))) as SourceFrames;
      expect(frames.kind).toBe('video');
      expect(frames.sequence!.frames.length).toBeGreaterThan(5);
    } finally {
      clearInterval(sampler);
    }
    peak = Math.max(peak, process.memoryUsage().rss);
    expect(existsSync(jobTempDir(jobId))).toBe(false);
    // Buffering the download alone would add 150 MB (and a copy of it on concatenation).
    expect((peak - before) / MB).toBeLessThan(150);
  }, 120_000);

  it('the temp folder is removed when decoding fails, and when the download fails', async () => {
    const broken = 'job-broken-video';
    const src = await sourceStage().run(context(broken, `${base}/broken.webm`));
    expect(existsSync(jobTempDir(broken))).toBe(true);
    await expect(createFramesStage(config).run(context(broken, `${base}/broken.webm`, { 'animated-source': src }))).rejects.toMatchObject({
      code: 'bad_video',
    });
    expect(existsSync(jobTempDir(broken))).toBe(false);

    const tooBig = 'job-too-big-video';
    const small = loadConfig({ DATA_DIR: work, ALLOW_PRIVATE_NETWORKS: 'true', VIDEO_MAX_BYTES: String(5 * MB) });
    await expect(sourceStage(small).run(context(tooBig, `${base}/big.mp4`))).rejects.toMatchObject({ code: 'source_too_large' });
    expect(existsSync(jobTempDir(tooBig))).toBe(false);
    await expect(sourceStage(small).run(context(tooBig, `${base}/big.mp4?chunked`))).rejects.toMatchObject({ code: 'source_too_large' });
    expect(existsSync(jobTempDir(tooBig))).toBe(false);
    await expect(sourceStage().run(context(tooBig, `${base}/page.html`))).rejects.toMatchObject({ code: 'unsupported_type' });
    expect(existsSync(jobTempDir(tooBig))).toBe(false);
  }, 60_000);

  it('stale job folders are swept; fresh ones and other folders are kept', async () => {
    const root = mkdtempSync(join(work, 'sweep-'));
    const stale = join(root, `${JOB_DIR_PREFIX}old`);
    const fresh = join(root, `${JOB_DIR_PREFIX}new`);
    const other = join(root, 'not-a-job-dir');
    for (const d of [stale, fresh, other]) mkdirSync(d);
    const old = new Date(Date.now() - 7 * 3600_000);
    utimesSync(stale, old, old);
    utimesSync(other, old, old);
    expect(await sweepStaleJobDirs(6 * 3600_000, root)).toBe(1);
    expect([existsSync(stale), existsSync(fresh), existsSync(other)]).toEqual([false, true, true]);
  });
});
