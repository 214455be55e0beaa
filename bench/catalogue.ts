/**
 * Catalogue throughput (`npm run bench`, or `node dist/bench/catalogue.js [pictures] [embedded|scaled|gallery]
 * [per request] [distinct]`; the last two for the gallery only).
 *
 * One showcase (thin frame) gets `pictures` (default 200) 12-megapixel JPEGs, served by URL from this
 * process, in requests of 20 (the API's cap per request), through a per-user key: in embedded mode (one
 * process, PGlite, in-process queue) and scaled mode (`--role api` + a worker, Postgres + Redis/Bull), both
 * at the default WORKER_CONCURRENCY (2). Timed from the first POST to the last completion (the jobs'
 * `finished_at`, same clock), with the first completion, the median stage times (the jobs' own timings),
 * the peak RSS of each service process (VmHWM) and their CPU time. In the same run, with the same
 * concurrency and pictures: the same-output floor (plain sharp decoding each picture once and encoding the
 * texture and the seven thumbnails) before each mode, and the texture-only floor once.
 *
 * The gallery mode is the method of issue 44 item 4, what a gallery's upload feels like: 60 distinct
 * noisy 12 MP JPEGs (~5 MB, none repeated), 10 a request as `items` with `frame: "thin"`, embedded, and
 * the same-output floor over those same pictures (each decoded once) before and right after the service.
 * Alone at its defaults it replaces only the gallery entry of catalogue.json.
 * Results: bench/results/catalogue.json.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { callJson, createDatabase, median, round, sleep, spawnEntry, waitHealthy } from './bench-service';
import { cataloguePictures, DISTINCT, galleryPictures, runPool, sameOutputFloor, textureFloor } from './catalogue-inputs';

/** The gallery mode's pictures (issue 44 item 4: 60 distinct noisy 12 MP JPEGs). */
const GALLERY_PICTURES = 60;

const OWNER = 'owner-key-for-the-catalogue-bench';
const REDIS_URL = 'redis://127.0.0.1:6379/9';
const MODES = (process.argv[3] ? [process.argv[3]] : ['embedded', 'scaled', 'gallery']) as ('embedded' | 'scaled' | 'gallery')[];
const PICTURES = Number(process.argv[2] ?? (MODES.length === 1 && MODES[0] === 'gallery' ? GALLERY_PICTURES : 200));
/** The gallery mode's request size and how many distinct pictures it cycles through (default: all distinct). */
const GALLERY_PER_REQUEST = Number(process.argv[4] ?? 10);
const GALLERY_DISTINCT = Number(process.argv[5] ?? 0);
/** The worker's default WORKER_CONCURRENCY; the floors run with the same. */
const CONCURRENCY = 2;
const PER_REQUEST = 20;
const TICK_MS = 10; // /proc CPU times are in clock ticks of 10 ms (USER_HZ 100)

/** Peak resident set (VmHWM) of a process, MB. */
function peakRssMb(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? round(Number(m[1]) / 1024, 0) : NaN;
}

/** User + system CPU time of a process so far, ms. */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) * TICK_MS; // utime, stime (fields 14 and 15)
}

/** CPU time of a process's threads by name (main thread: 'main'), ms. */
function cpuByThread(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = Number(tid) === pid ? 'main' : stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replace(/[-_ ]?\d+$/, '');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(name, (out.get(name) ?? 0) + (Number(f[11]) + Number(f[12])) * TICK_MS);
    } catch {
      /* the thread ended meanwhile */
    }
  }
  return out;
}

/** SIGTERM (a clean exit writes what CATALOGUE_NODE_OPTIONS asked for, e.g. --cpu-prof), SIGKILL after 10 s. */
async function stop(procs: ChildProcess[]): Promise<void> {
  await Promise.all(
    procs
      .filter((p) => p.exitCode === null)
      .map(
        (p) =>
          new Promise<void>((done) => {
            const kill = setTimeout(() => p.kill('SIGKILL'), 10_000);
            p.once('exit', () => {
              clearTimeout(kill);
              done();
            });
            p.kill('SIGTERM');
          }),
      ),
  );
}

interface Service {
  base: string;
  key: string;
  procs: Record<string, ChildProcess>;
}

async function startService(mode: 'embedded' | 'scaled', dataDir: string, dbUrl: string): Promise<Service> {
  const port = 43000 + Math.floor(Math.random() * 2000);
  const base = `http://127.0.0.1:${port}`;
  const common = {
    ALLOW_PRIVATE_NETWORKS: 'true',
    RATE_LIMIT_PER_KEY: '1000000',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: base,
    OWNER_API_KEY: OWNER,
    // For a closer look at the service processes, e.g. CATALOGUE_NODE_OPTIONS='--cpu-prof --cpu-prof-dir=/tmp/prof'.
    ...(process.env.CATALOGUE_NODE_OPTIONS ? { NODE_OPTIONS: process.env.CATALOGUE_NODE_OPTIONS } : {}),
  };
  const procs: Record<string, ChildProcess> = {};
  if (mode === 'embedded') {
    procs.api = spawnEntry('api', { ...common, DATA_DIR: join(dataDir, 'embedded') });
    await waitHealthy(base, procs.api);
  } else {
    const shared = { ...common, DATABASE_URL: dbUrl, REDIS_URL, DATA_DIR: join(dataDir, 'scaled') };
    procs.api = spawnEntry('api', shared, ['--role', 'api']);
    await waitHealthy(base, procs.api);
    const metricsPort = 46000 + Math.floor(Math.random() * 1000);
    procs.worker = spawnEntry('worker', { ...shared, METRICS_PORT: String(metricsPort) });
    await waitHealthy(`http://127.0.0.1:${metricsPort}`, procs.worker, '/metrics');
  }
  const user = await callJson(base, 'POST', '/api/admin/users', OWNER, {
    email: `catalogue-${Date.now()}@example.com`,
    credits: 5000,
    showcase_slots: 3,
  });
  const { key } = await callJson(base, 'POST', `/api/admin/users/${user.id}/keys`, OWNER, {});
  return { base, key, procs };
}

/**
 * Adds `urls` to a new thin-framed showcase, `perRequest` a request (as `image_urls`, or as `items` each
 * with `frame: "thin"`, as a gallery's client sends them); waits until every picture is final.
 */
async function importCatalogue(s: Service, urls: string[], perRequest = PER_REQUEST, asItems = false) {
  const body = (part: string[]) => (asItems ? { items: part.map((u) => ({ image_url: u, frame: 'thin' })) } : { image_urls: part });
  const t0 = Date.now();
  const created = await callJson(s.base, 'POST', '/api/v2/showcases', s.key, { frame: 'thin', ...body(urls.slice(0, perRequest)) });
  const id = created.id ?? created.showcase?.id;
  for (let i = perRequest; i < urls.length; i += perRequest) {
    await callJson(s.base, 'POST', `/api/v2/showcases/${id}/items`, s.key, body(urls.slice(i, i + perRequest)));
  }
  const posted = Date.now() - t0;
  let items: any[] = [];
  for (;;) {
    items = (await callJson(s.base, 'GET', `/api/v2/showcases/${id}`, s.key)).items;
    if (items.length === urls.length && items.every((i) => i.status === 'completed' || i.status === 'failed')) break;
    // The times come from the jobs' rows, so polling slowly costs nothing but leaves the CPU to the service.
    await sleep(2000);
  }
  const failed = items.filter((i) => i.status === 'failed');
  if (failed.length) throw new Error(`${failed.length} pictures failed, e.g. ${JSON.stringify(failed[0].error)}`);
  const jobs = await Promise.all(items.map((i) => callJson(s.base, 'GET', `/api/v2/jobs/${i.job_id}`, s.key)));
  return { t0, posted, jobs };
}

async function measureMode(
  mode: 'embedded' | 'scaled' | 'gallery',
  pictureUrl: (i: number) => string,
  dataDir: string,
  dbUrl: string,
  warmUrl: string,
  count: number,
) {
  const s = await startService(mode === 'gallery' ? 'embedded' : mode, dataDir, dbUrl);
  try {
    // Warm-up: one picture in a showcase of its own (first-run code paths, codecs, pools).
    await importCatalogue(s, [warmUrl]);
    await sleep(500);
    const pids = Object.fromEntries(Object.entries(s.procs).map(([name, p]) => [name, p.pid!]));
    const cpu0 = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuMs(pid)]));
    const threads0 = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuByThread(pid)]));
    const { t0, posted, jobs } = await importCatalogue(
      s,
      Array.from({ length: count }, (_, i) => pictureUrl(i)),
      mode === 'gallery' ? GALLERY_PER_REQUEST : PER_REQUEST,
      mode === 'gallery',
    );
    const finished = jobs.map((j) => Date.parse(j.finished_at) - t0).sort((a, b) => a - b);
    const totalMs = finished[finished.length - 1];
    const cpu = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuMs(pid) - cpu0[name]]));
    const cpuTotal = Object.values(cpu).reduce((a, b) => a + b, 0);
    // Which threads the CPU went to: main (JavaScript; PGlite in embedded mode), libuv's pool (sharp's calls,
    // file writes, hashing), libvips' workers, V8's helpers (GC).
    const byThread = Object.fromEntries(
      Object.entries(pids).map(([name, pid]) => {
        const now = cpuByThread(pid);
        const d = [...now]
          .map(([t, ms]) => [t, round((ms - (threads0[name].get(t) ?? 0)) / count)] as const)
          .filter(([, v]) => v >= 1)
          .sort((a, b) => b[1] - a[1]);
        // Threads that ended meanwhile show only in the process's total.
        const ended = round((cpuMs(pid) - cpu0[name]) / count - d.reduce((a, [, v]) => a + v, 0));
        return [name, Object.fromEntries([...d, ['other threads (ended or small)', ended]])];
      }),
    );
    const stageNames = [...new Set(jobs.flatMap((j) => j.stages.map((st: { stage: string }) => st.stage)))] as string[];
    const stages = Object.fromEntries(
      stageNames.map((n) => [
        n,
        round(median(jobs.map((j) => j.stages.find((st: { stage: string }) => st.stage === n)?.duration_ms ?? 0))),
      ]),
    );
    // Time a job waited before each stage (for its slot: a CPU stage after an I/O one waits for a CPU slot
    // that went to another picture meanwhile), median over the jobs.
    const gapsBefore = (j: any) =>
      new Map<string, number>(
        j.stages
          .slice(1)
          .map((st: { stage: string; started_at: string }, k: number) => [
            st.stage,
            Date.parse(st.started_at) - (Date.parse(j.stages[k].started_at) + j.stages[k].duration_ms),
          ]),
      );
    const gaps = jobs.map(gapsBefore);
    const waits = Object.fromEntries(stageNames.slice(1).map((n) => [n, round(median(gaps.map((g) => g.get(n) ?? 0)))]));
    const running = jobs.map((j) => Date.parse(j.finished_at) - Date.parse(j.started_at));
    // Where the first picture's time went: queued until a slot, then each stage (ms from the first POST).
    const first = jobs.reduce((a, b) => (Date.parse(a.finished_at) <= Date.parse(b.finished_at) ? a : b));
    const at = (iso: string) => Date.parse(iso) - t0;
    const firstTimeline = {
      created: at(first.created_at),
      started: at(first.started_at),
      stages: Object.fromEntries(
        first.stages.map((st: { stage: string; started_at: string; duration_ms: number }) => [
          st.stage,
          { at: at(st.started_at), ms: round(st.duration_ms) },
        ]),
      ),
      finished: at(first.finished_at),
    };
    const rss = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, peakRssMb(pid)]));
    return {
      pictures: count,
      total_s: round(totalMs / 1000, 2),
      pictures_per_s: round(count / (totalMs / 1000), 2),
      ms_per_picture: round(totalMs / count),
      first_picture_ms: finished[0],
      first_picture_timeline_ms: firstTimeline,
      posting_ms: posted,
      job_running_p50_ms: median(running),
      stages_p50_ms: stages,
      wait_before_stage_p50_ms: waits,
      cpu_ms_per_picture: Object.fromEntries([
        ...Object.entries(cpu).map(([k, v]) => [k, round(v / count)]),
        ['total', round(cpuTotal / count)],
      ]),
      cpu_ms_per_picture_by_thread: byThread,
      peak_rss_mb: { ...rss, total: Object.values(rss).reduce((a, b) => a + b, 0) },
    };
  } finally {
    await stop(Object.values(s.procs));
  }
}

async function main(): Promise<void> {
  sharp.cache(false);
  const catalogueModes = MODES.filter((m) => m !== 'gallery');
  const galleryCount = MODES.length === 1 ? PICTURES : GALLERY_PICTURES;
  const pictures = catalogueModes.length ? await cataloguePictures() : [];
  // The gallery's pictures: all distinct (one more for the warm-up), or cycling through GALLERY_DISTINCT.
  const gallery = MODES.includes('gallery') ? await galleryPictures((GALLERY_DISTINCT || galleryCount) + 1) : [];
  const galleryCycle = gallery.slice(0, -1);
  const media = createServer((req, res) => {
    const m = /\/(p|g)\/(\d+|warm)\.jpg$/.exec(req.url ?? '');
    if (!m) return void res.writeHead(404).end();
    const set = m[1] === 'p' ? pictures : galleryCycle;
    const body = m[2] === 'warm' ? (m[1] === 'p' ? pictures[DISTINCT - 1] : gallery[gallery.length - 1]) : set[Number(m[2]) % set.length];
    res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': body.length });
    res.end(body);
  });
  await new Promise<void>((r) => media.listen(0, '127.0.0.1', r));
  const mediaBase = `http://127.0.0.1:${(media.address() as { port: number }).port}`;
  const urlOf = (set: 'p' | 'g') => (i: number) => `${mediaBase}/${set}/${i}.jpg`;
  const dataDir = mkdtempSync(join(tmpdir(), 'ar-bench-catalogue-'));
  const db = await createDatabase('ar_bench_catalogue');
  const floorOf = async (work: (b: Buffer) => Promise<unknown>, set: Buffer[], count: number) => {
    const cpu0 = process.cpuUsage();
    const ms = await runPool(set, count, CONCURRENCY, work);
    const cpu = process.cpuUsage(cpu0);
    return {
      ms_per_picture: round(ms / count),
      cpu_ms_per_picture: round((cpu.user + cpu.system) / 1000 / count),
      pictures_per_s: round(count / (ms / 1000), 2),
    };
  };
  try {
    const first = catalogueModes.length ? pictures : galleryCycle;
    await runPool(first, CONCURRENCY * 2, CONCURRENCY, sameOutputFloor); // warm-up
    const texture = catalogueModes.length ? await floorOf(textureFloor, pictures, PICTURES) : undefined;
    if (texture) console.log(`texture-only floor: ${texture.ms_per_picture} ms a picture`);
    // The same-output floor runs before and after each mode, and the mode is held against the mean of the
    // two: on a shared machine the load drifts over minutes, and one floor on one side would take the drift.
    // The gallery's floor runs over the gallery's own pictures (each once), before and right after it.
    const modes: Record<string, unknown> = {};
    let previous: { set: 'p' | 'g'; floor: Awaited<ReturnType<typeof floorOf>> } | undefined;
    for (const mode of MODES) {
      const set = mode === 'gallery' ? 'g' : 'p';
      const [setPictures, count] = mode === 'gallery' ? [galleryCycle, galleryCount] : [pictures, PICTURES];
      const before = previous?.set === set ? previous.floor : await floorOf(sameOutputFloor, setPictures, count);
      if (previous?.set !== set) console.log(`same-output floor (${mode}): ${before.ms_per_picture} ms a picture`);
      const loadBefore = loadavg()[0];
      const r = await measureMode(mode, urlOf(set), dataDir, db.url, `${mediaBase}/${set}/warm.jpg`, count);
      // Other work on the machine: the 1-minute load average (the service alone keeps it near 2 on 2 cores).
      const load = { before: round(loadBefore, 2), after: round(loadavg()[0], 2) };
      const after = await floorOf(sameOutputFloor, setPictures, count);
      console.log(`same-output floor (${mode}): ${after.ms_per_picture} ms a picture`);
      previous = { set, floor: after };
      const floorMs = round((before.ms_per_picture + after.ms_per_picture) / 2);
      const floorCpu = (before.cpu_ms_per_picture + after.cpu_ms_per_picture) / 2;
      const ratio = round(r.ms_per_picture / floorMs, 2);
      modes[mode] = {
        ...(mode === 'gallery'
          ? {
              input: {
                pictures: count,
                distinct: GALLERY_DISTINCT || count,
                size: '4000x3000 (every fourth 3000x4000) JPEG q90 4:2:0, unsoftened grain (sigma 16)',
                mean_bytes: Math.round(galleryCycle.reduce((a, b) => a + b.length, 0) / galleryCycle.length),
                served: `HTTP from the bench process, by URL, ${GALLERY_PER_REQUEST} per request as items with frame "thin"`,
              },
            }
          : {}),
        ...r,
        load_average: load,
        same_output_floor: { ms_per_picture: floorMs, before, after },
        ratio_to_same_output_floor: ratio,
        // The method: the floor measured right after the service, alone.
        ratio_to_floor_after: round(r.ms_per_picture / after.ms_per_picture, 2),
        cpu_ratio_to_same_output_floor: round(r.cpu_ms_per_picture.total / floorCpu, 2),
        ...(texture && mode !== 'gallery' ? { ratio_to_texture_floor: round(r.ms_per_picture / texture.ms_per_picture, 2) } : {}),
      };
      console.log(
        `${mode}: ${count} pictures in ${r.total_s} s = ${r.pictures_per_s}/s, ${r.ms_per_picture} ms a picture = ${ratio}x the same-output floor ` +
          `(${floorMs} ms; ${round(r.ms_per_picture / after.ms_per_picture, 2)}x the floor after; CPU ${round(r.cpu_ms_per_picture.total / floorCpu, 2)}x); first picture ${r.first_picture_ms} ms; ` +
          `peak RSS ${JSON.stringify(r.peak_rss_mb)} MB; CPU ${JSON.stringify(r.cpu_ms_per_picture)} ms a picture; stages ${JSON.stringify(r.stages_p50_ms)}; ` +
          `waits before stages ${JSON.stringify(r.wait_before_stage_p50_ms)}; first ${JSON.stringify(r.first_picture_timeline_ms)}`,
      );
    }
    const report = {
      date: new Date().toISOString(),
      node: process.version,
      sharp: sharp.versions.sharp,
      vips: sharp.versions.vips,
      cpus: (await import('node:os')).cpus().length,
      input: {
        pictures: PICTURES,
        distinct: DISTINCT,
        size: '4000x3000 (every fourth 3000x4000) JPEG q90 4:2:0',
        mean_bytes: pictures.length ? Math.round(pictures.reduce((a, b) => a + b.length, 0) / pictures.length) : undefined,
        served: 'HTTP from the bench process, by URL, 20 per request',
      },
      showcase: { frame: 'thin' },
      concurrency: CONCURRENCY,
      timing:
        'first POST to the last job finished_at (server clock = bench clock); floors: same pictures, same concurrency, in the bench process; the same-output floor before and after each mode, averaged',
      texture_floor: texture,
      ...modes,
      targets: { ratio_to_same_output_floor_max: 1.3, first_picture_ms_max: 1000, gallery_first_picture_ms_max: 1500 },
    };
    const out = join(__dirname, '../../bench/results');
    mkdirSync(out, { recursive: true });
    // The gallery alone at its defaults (`catalogue.js 60 gallery`) replaces only the gallery's entry in
    // catalogue.json (dated): the 200-picture modes take minutes more.
    const galleryOnly = MODES.length === 1 && MODES[0] === 'gallery' && PICTURES === GALLERY_PICTURES && process.argv.length <= 4;
    const file =
      (MODES.length === 3 && PICTURES === 200) || galleryOnly ? 'catalogue.json' : `catalogue-${MODES.join('-')}-${PICTURES}.tmp`;
    const written = galleryOnly
      ? { ...JSON.parse(readFileSync(join(out, file), 'utf8')), gallery: { date: report.date, ...(modes.gallery as object) } }
      : report;
    writeFileSync(join(out, file), JSON.stringify(written, null, 2) + '\n');
    console.log(`written to bench/results/${file}`);
  } finally {
    media.close();
    await db.drop().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
