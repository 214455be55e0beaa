import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { verifyWebhook } from '@app/plugins';
import { Api, waitFor } from './support/app-process';
import { startServiceApp, type TestApp } from './support/test-app';
import { startMediaServer } from './support/media-server';
import { rawGet } from './support/raw-get';

const OWNER = 'owner-key-for-v1-api-e2e-tests';
let app: TestApp;
let api: Api;
let media: Awaited<ReturnType<typeof startMediaServer>>;

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}
let receiver: Server;
let receiverBase: string;
const received: Record<string, Received[]> = {};
/** Per path, the status codes to answer in turn (the last one repeats). */
const script: Record<string, number[]> = {};

beforeAll(async () => {
  media = await startMediaServer();
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const path = req.url!;
      (received[path] ??= []).push({ headers: req.headers, body });
      const codes = script[path] ?? [200];
      const code = codes.length > 1 ? codes.shift()! : codes[0];
      res.writeHead(code, code >= 300 && code < 400 ? { location: `${receiverBase}/elsewhere` } : {});
      res.end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverBase = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  app = await startServiceApp(
    OWNER,
    {
      JOB_RETRY_BASE_MS: '100',
      CALLBACK_MAX_ATTEMPTS: '5',
      CALLBACK_TIMEOUT_MS: '2000',
    },
    // The v1 API is the subject, not the embedded mode: Postgres instead of PGlite's WebAssembly in this thread.
    { database: 'postgres' },
  );
  api = new Api(app.base, OWNER);
});
afterAll(async () => {
  await app.close();
  await media.stop();
  await new Promise((r) => receiver.close(r));
});

describe('v1 result', () => {
  it('returns every field of the v1 status answer (docs/api.md "Converting a picture (v1)") as absolute URLs from PUBLIC_BASE_URL', async () => {
    const { body } = await api.req('POST', '/api/v1/convert', { image_url: `${media.base}/street.jpg`, aspect_ratio: '16:9' });
    await api.waitStatus(body.job_id, ['completed']);
    const r = await api.req('GET', `/api/v1/result/${body.job_id}`);
    expect(r.body).toMatchObject({
      embed_url: expect.stringMatching(new RegExp(`^${api.base}/embed/emb_[a-z2-7]{24}$`)),
      embed_url_static: expect.stringMatching(new RegExp(`^${api.base}/embed/emb_[a-z2-7]{24}/static$`)),
      widget_script_url: `${api.base}/api/v1/widget.js`,
      models: { usdz: { url: expect.stringMatching(/\.usdz$/) }, glb: { url: expect.stringMatching(/\.glb$/) } },
      dimensions: { width_inches: 42.67, height_inches: 24 },
    });
    // The embed id is not the job id: a public page does not reveal the job.
    expect(r.body.embed_url).not.toContain(body.job_id);
  });
});

describe('callbacks', () => {
  it('retries a failing receiver with backoff, never follows a redirect, signs every attempt and records it', async () => {
    script['/hook-retry'] = [500, 302, 200];
    const { body } = await api.req('POST', '/api/v1/convert', {
      image_url: `${media.base}/street.jpg`,
      callback_url: `${receiverBase}/hook-retry`,
    });
    await waitFor(async () => received['/hook-retry']?.length === 3, 30_000, 'three callback attempts');
    const { secret } = (await api.req('GET', '/api/v1/webhook-secret')).body;
    expect(secret).toMatch(/^whsec_/);
    const attempts = received['/hook-retry'];
    expect(new Set(attempts.map((a) => a.headers['webhook-id'])).size).toBe(1);
    for (const a of attempts) {
      expect(a.headers['content-type']).toBe('application/json');
      expect(verifyWebhook(secret, a.headers as Record<string, string>, a.body)).toBe(true);
      expect(verifyWebhook(secret, a.headers as Record<string, string>, a.body.replace('completed', 'failed'))).toBe(false);
    }
    expect(received['/elsewhere']).toBeUndefined();
    const payload = JSON.parse(attempts[2].body);
    const result = (await api.req('GET', `/api/v1/result/${body.job_id}`)).body;
    expect(payload).toEqual({
      job_id: body.job_id,
      status: 'completed',
      embed_url: result.embed_url,
      embed_url_static: result.embed_url_static,
      usdz_url: result.models.usdz.url,
      glb_url: result.models.glb.url,
    });
    const status = await waitFor(async () => {
      const s = (await api.req('GET', `/api/v1/status/${body.job_id}`)).body;
      return s.callback?.delivered ? s : undefined;
    });
    expect(status.callback.attempts.map((a: any) => [a.attempt, a.status_code, a.succeeded])).toEqual([
      [1, 500, false],
      [2, 302, false],
      [3, 200, true],
    ]);
    expect(status.callback.attempts[1].error).toContain('redirect');
  });

  it('calls back on failure too', async () => {
    const { body } = await api.req('POST', '/api/v1/convert', {
      image_url: `${media.base}/missing.jpg`,
      callback_url: `${receiverBase}/hook-failed`,
    });
    await waitFor(async () => received['/hook-failed']?.length === 1, 20_000, 'failure callback');
    expect(JSON.parse(received['/hook-failed'][0].body)).toMatchObject({
      job_id: body.job_id,
      status: 'failed',
      embed_url: null,
      glb_url: null,
      error: { code: 'source_not_found' },
    });
  });

  it('stops after CALLBACK_MAX_ATTEMPTS and shows every attempt', async () => {
    script['/hook-down'] = [503];
    const { body } = await api.req('POST', '/api/v1/convert', {
      image_url: `${media.base}/street.jpg`,
      callback_url: `${receiverBase}/hook-down`,
    });
    await waitFor(async () => received['/hook-down']?.length === 5, 30_000, 'five attempts');
    await new Promise((r) => setTimeout(r, 2000));
    expect(received['/hook-down']).toHaveLength(5);
    const s = (await api.req('GET', `/api/v1/status/${body.job_id}`)).body;
    expect(s.status).toBe('completed');
    expect(s.callback).toMatchObject({ delivered: false });
    expect(s.callback.attempts).toHaveLength(5);
  });

  it('rejects a callback_url that is not http(s), naming the param', async () => {
    const r = await api.req('POST', '/api/v1/convert', { image_url: `${media.base}/street.jpg`, callback_url: 'ftp://x/y' });
    expect(r.status).toBe(400);
    expect(r.body.error.param).toBe('callback_url');
  });
});

describe('bad input is 400, never 500', () => {
  const raw = async (path: string, body: string, headers: Record<string, string> = {}) => {
    const r = await fetch(`${api.base}${path}`, {
      method: 'POST',
      headers: { 'x-api-key': OWNER, 'content-type': 'application/json', ...headers },
      body,
    });
    return { status: r.status, body: await r.json() };
  };

  it('refuses a JSON body nested 100,000 deep on every route, with or without an Idempotency-Key', async () => {
    const deep = `{"image_url":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    for (const path of ['/api/v1/convert', '/api/v2/showcases', '/api/v2/animated-ar', '/api/admin/users']) {
      for (const headers of [{}, { 'idempotency-key': `deep-${path}` }] as Record<string, string>[]) {
        const r = await raw(path, deep, headers);
        expect([path, r.status, r.body.error]).toEqual([
          path,
          400,
          {
            type: 'invalid_request_error',
            code: 'body_too_deep',
            message: 'the JSON body is nested more than 64 levels deep',
            request_id: expect.stringMatching(/^req_/),
          },
        ]);
      }
    }
    // Ordinary nesting still reaches the route's own validation.
    expect((await raw('/api/v1/convert', '{"image_url":[[[[1]]]]}')).body.error).toMatchObject({
      code: 'parameter_invalid',
      param: 'image_url',
    });
  });

  it('refuses NUL in any text field, naming it, and creates nothing', async () => {
    const cases: [string, unknown, string][] = [
      ['/api/v1/convert', { image_url: `${media.base}/street\u0000.jpg` }, 'image_url'],
      ['/api/v1/convert', { image_url: `${media.base}/street.jpg`, callback_url: 'https://hooks.example/\u0000' }, 'callback_url'],
      ['/api/v2/showcases', { description: 'Summer\u0000sale' }, 'description'],
      ['/api/v2/showcases', { custom_links: [{ title: 'Shop\u0000', url: 'https://shop.example/' }] }, 'custom_links[0].title'],
      ['/api/v2/animated-ar', { image_url: 'https://cdn.example/cat.jpg', custom_motion: 'wave\u0000' }, 'custom_motion'],
      ['/api/admin/users', { email: 'nul@example.com', name: 'Ann\u0000' }, 'name'],
    ];
    for (const [path, body, param] of cases) {
      const r = await api.req('POST', path, body);
      expect([path, r.status, r.body.error]).toEqual([
        path,
        400,
        {
          type: 'invalid_request_error',
          code: 'parameter_invalid',
          param,
          message: `${param}: must not contain NUL (\\u0000) characters`,
          request_id: expect.stringMatching(/^req_/),
        },
      ]);
    }
    // Path parameters too: the admin usage view passed this one on to Postgres.
    const usage = await api.req('GET', '/api/admin/users/usr_a%00/usage');
    expect([usage.status, usage.body.error.param]).toEqual([400, 'id']);
    expect((await api.req('POST', '/api/admin/users', { email: 'nul@example.com' })).status).toBe(201);
  });
});

describe('embed pages', () => {
  let result: any;
  beforeAll(async () => {
    const { body } = await api.req('POST', '/api/v1/convert', { image_url: `${media.base}/street.jpg` });
    await api.waitStatus(body.job_id, ['completed']);
    result = (await api.req('GET', `/api/v1/result/${body.job_id}`)).body;
  });
  const html = async (url: string, ua?: string) => {
    const r = await fetch(url, { headers: ua ? { 'user-agent': ua } : {} });
    return { status: r.status, type: r.headers.get('content-type'), text: await r.text() };
  };

  it('serves the interactive page with the launcher for each platform, without a key', async () => {
    const ios = await html(
      result.embed_url,
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1',
    );
    expect(ios.type).toContain('text/html');
    expect(ios.text).toMatch(
      new RegExp(
        `<a class="ar-button" id="ar-launch" rel="ar" href="${result.models.usdz.url.replace(/\./g, '\\.')}#allowsContentScaling=0"><img `,
      ),
    );
    const android = await html(
      result.embed_url,
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36',
    );
    expect(android.text).toContain(
      `href="intent://arvr.google.com/scene-viewer/1.2?mode=ar_preferred&amp;file=${encodeURIComponent(result.models.glb.url)}`,
    );
    expect(android.text).toContain(
      'package=com.google.android.googlequicksearchbox;action=android.intent.action.VIEW;S.browser_fallback_url=',
    );
    // New results hang on the wall by default (a result written before presentations existed: floor).
    expect(android.text.includes('&amp;resizable=false&amp;enable_vertical_placement=true#Intent;')).toBe(result.placement === 'wall');
    const desktop = await html(result.embed_url, 'Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0');
    expect(desktop.text).toContain(`<model-viewer src="${result.models.glb.url}"`);
    expect(desktop.text).toContain(`${api.base}/assets/model-viewer.min.js`);
    expect(desktop.text).toContain('<svg');
    expect(desktop.text).toContain('badge animated');
    const mv = await fetch(`${api.base}/assets/model-viewer.min.js`);
    expect(mv.status).toBe(200);
    expect(mv.headers.get('content-type')).toContain('javascript');
  });

  it('launches a framed wall picture with its banner: Scene Viewer, Quick Look (tap script by hash), desktop preview', async () => {
    const TITLE = 'Sunset <script>alert(1)</script> & Co';
    const LINK = 'https://shop.example.com/p/sunset?ref=ar&size=24x36';
    const { body } = await api.req('POST', '/api/v1/convert', {
      image_url: `${media.base}/street.jpg`,
      placement: 'wall',
      frame: { style: 'classic', color: 'oak' },
      mat: { width_inches: 2 },
      title: TITLE,
      subtitle: 'Giclée print',
      price: '$240',
      call_to_action: 'Buy now',
      link_url: LINK,
    });
    expect(body).toEqual(expect.objectContaining({ job_id: expect.any(String) }));
    await api.waitStatus(body.job_id, ['completed']);
    const framed = (await api.req('GET', `/api/v1/result/${body.job_id}`)).body;
    expect([framed.placement, framed.allow_scaling, framed.banner.title, framed.banner.link_url]).toEqual(['wall', false, TITLE, LINK]);
    const android = await html(
      framed.embed_url,
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36',
    );
    const intent = android.text.match(/id="ar-launch" target="_top" href="([^"]+)"/)![1].replace(/&amp;/g, '&');
    expect(Object.fromEntries(new URLSearchParams(intent.slice(intent.indexOf('?') + 1, intent.indexOf('#'))))).toEqual({
      mode: 'ar_preferred',
      file: framed.models.glb.url,
      title: TITLE,
      link: LINK,
      resizable: 'false',
      enable_vertical_placement: 'true',
    });
    const ios = await fetch(`${framed.embed_url}?platform=ios`);
    const iosHtml = await ios.text();
    expect(iosHtml).toContain(
      `rel="ar" href="${framed.models.usdz.url}#allowsContentScaling=0&amp;checkoutTitle=Sunset%20%3Cscript%3Ealert(1)%3C%2Fscript%3E%20%26%20Co&amp;checkoutSubtitle=Gicl%C3%A9e%20print&amp;callToAction=Buy%20now&amp;price=%24240" data-link="${LINK.replace(/&/g, '&amp;')}">`,
    );
    // The Quick Look banner tap, then the engagement beacon (docs/analytics.md, "v1 embeds"): each allowed by its hash.
    const inline = [...iosHtml.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
    expect(inline).toHaveLength(2);
    expect(inline[0]).toContain('_apple_ar_quicklook_button_tapped');
    expect(inline[1]).toContain('sendBeacon');
    for (const script of inline)
      expect(ios.headers.get('content-security-policy')).toContain(`'sha256-${createHash('sha256').update(script).digest('base64')}'`);
    const desktop = await html(`${framed.embed_url}?platform=desktop`);
    for (const text of [desktop.text, iosHtml, android.text]) {
      expect(text).not.toContain('<script>alert');
      expect(text).toContain('<span class="title">Sunset &lt;script&gt;alert(1)&lt;/script&gt; &amp; Co</span>');
    }
    expect(desktop.text).toMatch(
      /<model-viewer [^>]*ar-placement="wall" ar-scale="fixed" environment-image="neutral" shadow-intensity="[\d.]+" shadow-softness="[\d.]+"/,
    );
    // Height × width (× the frame's depth), one decimal, the framed size labelled: as every page writes a size.
    const o = framed.outer_dimensions;
    const d = framed.dimensions;
    const f = (v: number) => new Intl.NumberFormat('en', { maximumFractionDigits: 1 }).format(v);
    const depth = o.depth_inches ? ` × ${f(o.depth_inches)}` : '';
    expect(desktop.text).toContain(
      `<span class="size">${f(d.height_inches)} × ${f(d.width_inches)} in, ${f(o.height_inches)} × ${f(o.width_inches)}${depth} in framed</span>`,
    );
  });

  it('serves the static page: the image and a plain badge, no button, no animation', async () => {
    const s = await html(result.embed_url_static);
    expect(s.status).toBe(200);
    expect(s.text).toContain(result.poster_url);
    expect(s.text).not.toMatch(/<(a|button)[^>]*class="ar-button/);
    expect(s.text).not.toContain('class="badge animated"');
    expect(s.text).toContain('<span class="badge">AR model');
    // Its one script is the engagement beacon, allowed by its hash (docs/analytics.md, "v1 embeds").
    const scripts = [...s.text.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.map((m) => m[1])).toEqual(['']);
    expect(scripts[0][2]).toContain('sendBeacon');
    const csp = (await fetch(result.embed_url_static)).headers.get('content-security-policy');
    expect(csp).toContain(`'sha256-${createHash('sha256').update(scripts[0][2]).digest('base64')}'`);
  });

  it('sends a CSP that lets any site frame the pages but runs only our scripts, and nosniff', async () => {
    const desktop = await fetch(`${result.embed_url}?platform=desktop`);
    const page = await desktop.text();
    const csp = desktop.headers.get('content-security-policy') ?? '';
    const directives = Object.fromEntries(
      csp
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([name, ...values]) => [name, values]),
    );
    expect(directives['default-src']).toEqual(["'none'"]);
    expect(directives['frame-ancestors']).toEqual(['*']);
    expect(directives['base-uri']).toEqual(["'none'"]);
    expect(directives['object-src'] ?? directives['default-src']).toEqual(["'none'"]);
    // Scripts: our origin (model-viewer) and the page's inline scripts (the QR dialog, the beacon), by hash; nothing inline by default.
    expect(directives['script-src']).toEqual(expect.arrayContaining(["'self'", new URL(api.base).origin]));
    expect(directives['script-src']).not.toContain("'unsafe-inline'");
    expect(directives['script-src']).not.toContain("'unsafe-eval'");
    const inline = [...page.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
    expect(inline).toHaveLength(2);
    for (const script of inline)
      expect(directives['script-src']).toContain(`'sha256-${createHash('sha256').update(script).digest('base64')}'`);
    expect(desktop.headers.get('x-content-type-options')).toBe('nosniff');
    expect(desktop.headers.get('x-frame-options')).toBeNull();
    for (const url of [result.embed_url_static, `${result.embed_url}?platform=ios`, `${api.base}/embed/emb_aaaaaaaaaaaaaaaaaaaaaaaa`]) {
      const r = await fetch(url);
      expect([url, r.headers.get('content-security-policy')]).toEqual([url, csp]);
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it('sends the pages compressed to clients that accept it, the same page as uncompressed', async () => {
    const raw = (url: string, encoding: string) =>
      rawGet(url, { 'accept-encoding': encoding, 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0' });
    for (const [url, vary] of [
      [result.embed_url, 'User-Agent, Accept-Encoding'],
      [result.embed_url_static, 'Accept-Encoding'],
    ] as const) {
      const [plain, br, gz] = [await raw(url, 'identity'), await raw(url, 'br;q=1, gzip;q=0.5'), await raw(url, 'gzip')];
      expect([plain.headers['content-encoding'], br.headers['content-encoding'], gz.headers['content-encoding'], br.headers.vary]).toEqual([
        undefined,
        'br',
        'gzip',
        vary,
      ]);
      expect(brotliDecompressSync(br.body).toString()).toBe(plain.body.toString());
      expect(gunzipSync(gz.body).toString()).toBe(plain.body.toString());
      expect(br.body.length).toBeLessThan(plain.body.length / 2);
    }
  });

  it('answers 404 for an unknown or malformed id', async () => {
    expect((await html(`${api.base}/embed/emb_aaaaaaaaaaaaaaaaaaaaaaaa`)).status).toBe(404);
    expect((await html(`${api.base}/embed/${'x'.repeat(60)}`)).status).toBe(404);
    expect((await html(`${api.base}/embed/emb_aaaaaaaaaaaaaaaaaaaaaaaa/static`)).status).toBe(404);
  });
});

describe('widget.js and the API description', () => {
  it('serves the widget without a key, small, cross-origin', async () => {
    const r = await fetch(`${api.base}/api/v1/widget.js`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('javascript');
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
    const text = await r.text();
    expect(text).toContain('window.ARWidget');
    const { gzipSync } = await import('node:zlib');
    expect(gzipSync(text).length).toBeLessThan(4096);
  });

  it('answers CORS preflights on the v1 routes', async () => {
    const r = await fetch(`${api.base}/api/v1/convert`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://shop.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'x-api-key,content-type',
      },
    });
    expect(r.status).toBeLessThan(300);
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
    expect(r.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-api-key');
  });

  it('publishes an OpenAPI document and a docs page generated from the code', async () => {
    const doc = await (await fetch(`${api.base}/openapi.json`)).json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/v1/convert', '/api/v1/status/{jobId}', '/api/v1/result/{jobId}', '/healthz', '/readyz']),
    );
    expect(doc.paths['/api/v1/convert'].post.responses['202']).toBeDefined();
    expect(doc.components.securitySchemes['api-key']).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    expect(doc.components.schemas.ResultResponseDto.required).toEqual(
      expect.arrayContaining(['embed_url', 'embed_url_static', 'widget_script_url', 'models', 'dimensions']),
    );
    const page = await fetch(`${api.base}/docs`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('swagger');
  });
});
