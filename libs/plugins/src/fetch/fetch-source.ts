import { createWriteStream } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { OperationalError, UserError } from '@app/pipeline';
import { BlockedAddressError, guardedLookup, isBlockedHostname, type ResolveAll } from './ssrf-guard';
import { sniffType, type SniffedType } from './sniff';

export interface FetchOptions {
  /** Byte cap, enforced while streaming (Content-Length is not trusted). */
  maxBytes: number;
  /** Wall-clock cap for the whole download, redirects included. */
  timeoutMs: number;
  /** Cap for establishing each connection. */
  connectTimeoutMs: number;
  /** Redirects followed, each re-checked (default 3). */
  maxRedirects?: number;
  /** https only and no redirects (v2 animated AR rules). */
  strict?: boolean;
  /** Tests and local development only. */
  allowPrivateNetworks?: boolean;
  /** Accepted kinds of media (default: images). */
  accept?: readonly SniffedType['kind'][];
  signal?: AbortSignal;
}

export interface FetchedSource {
  bytes: Buffer;
  type: SniffedType;
  /** URL after redirects. */
  url: string;
}

/** A source streamed to a local file by {@link fetchSourceToFile}. */
export interface FetchedFile {
  /** The file written (the caller owns it and removes it). */
  file: string;
  /** Bytes written. */
  size: number;
  type: SniffedType;
  /** URL after redirects. */
  url: string;
}

export const FETCH_DEFAULTS = { maxRedirects: 3, accept: ['image'] as const };

const err = (code: string, message: string) => new UserError(code, `fetch: ${message}`);

function checkUrl(raw: string, strict: boolean, allowPrivate: (url: URL) => boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw err('invalid_url', `"${raw.slice(0, 200)}" is not a valid URL`);
  }
  if (strict ? url.protocol !== 'https:' : url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw err(
      'unsupported_url_scheme',
      `only ${strict ? 'https' : 'http and https'} URLs are accepted (got ${url.protocol.replace(':', '')})`,
    );
  }
  if (url.username || url.password) throw err('invalid_url', 'URLs with credentials are not accepted');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate(url) && isBlockedHostname(host)) {
    throw err('private_address', `${host} is a private or reserved address`);
  }
  return url;
}

/** What {@link guardedGet} needs: the download rules of {@link FetchOptions}, plus per-hop headers. */
export interface GuardedGetOptions extends Pick<
  FetchOptions,
  'timeoutMs' | 'connectTimeoutMs' | 'maxRedirects' | 'strict' | 'allowPrivateNetworks'
> {
  /**
   * Headers for one hop, asked again for every URL the redirects lead to, so that credentials can be
   * kept to the origin they belong to.
   */
  headers?: (url: URL) => Record<string, string>;
  /**
   * An origin the operator configured (a provider's API): exempt from the private-address check, as it
   * was chosen by the operator, not by whoever answers. Hops to any other origin are checked.
   */
  trustedOrigin?: string;
  /** DNS for the connect-time check (tests). */
  resolve?: ResolveAll;
}

/**
 * GETs an untrusted URL through the SSRF guard and returns the first answer that is not a redirect,
 * whatever its status. Each redirect is followed by hand, re-checked before connecting and at connect
 * time. `signal` must include `deadline` (the whole download's timeout): errors after it say so.
 */
export async function guardedGet(
  rawUrl: string,
  opts: GuardedGetOptions,
  signal: AbortSignal,
  deadline: AbortSignal,
): Promise<{ res: http.IncomingMessage; url: URL }> {
  const strict = opts.strict ?? false;
  const maxRedirects = opts.maxRedirects ?? FETCH_DEFAULTS.maxRedirects;
  const allowPrivate = (url: URL) => (opts.allowPrivateNetworks ?? false) || url.origin === opts.trustedOrigin;
  let url = checkUrl(rawUrl, strict, allowPrivate);
  for (let hop = 0; ; hop++) {
    const res = await request(url, opts, allowPrivate(url), signal, deadline);
    const status = res.statusCode ?? 0;
    if (status < 300 || status >= 400) return { res, url };
    res.resume();
    const location = res.headers.location;
    if (strict) throw err('redirect_not_allowed', `the source redirects (HTTP ${status}); give the final URL`);
    if (!location) throw err('bad_redirect', `HTTP ${status} without a Location header`);
    if (hop >= maxRedirects) throw err('too_many_redirects', `more than ${maxRedirects} redirects`);
    url = checkUrl(new URL(location, url).toString(), strict, allowPrivate);
  }
}

/**
 * Downloads an untrusted source: http/https only, SSRF-guarded at connect time, redirects re-checked
 * hop by hop, bytes capped while streaming, connect and total timeouts, type sniffed from magic bytes.
 * Failures are {@link UserError} (bad source) or {@link OperationalError} (worth a retry: 5xx, 429).
 */
export async function fetchSource(rawUrl: string, options: FetchOptions): Promise<FetchedSource> {
  const { res, url, opts, signal, deadline } = await openSource(rawUrl, options);
  const bytes = await readCapped(res, opts.maxBytes, signal, deadline);
  const type = checkType(bytes, opts.accept);
  return { bytes, type, url: url.toString() };
}

/**
 * {@link fetchSource} that streams the body to `file` instead of memory (videos up to VIDEO_MAX_BYTES):
 * same rules, the byte cap enforced on the wire, the type sniffed from the first bytes before the rest is
 * written, back-pressure from the disk. On failure the partial file may remain: the caller owns `file`
 * (put it in a folder it removes).
 *
 * @example
 * const { file, size, type } = await fetchSourceToFile(url, join(jobDir, 'source'), { maxBytes: 200 << 20, ...limits, accept: ['video'] });
 */
export async function fetchSourceToFile(rawUrl: string, file: string, options: FetchOptions): Promise<FetchedFile> {
  const { res, url, opts, signal, deadline } = await openSource(rawUrl, options);
  const { size, type } = await streamCapped(res, file, opts, signal, deadline);
  return { file, size, type, url: url.toString() };
}

/** Connects (SSRF guard, redirects), then checks the status and the declared length. */
async function openSource(rawUrl: string, options: FetchOptions) {
  const opts = { ...FETCH_DEFAULTS, ...options };
  const deadline = AbortSignal.timeout(opts.timeoutMs);
  const signal = opts.signal ? AbortSignal.any([opts.signal, deadline]) : deadline;
  const { res, url } = await guardedGet(rawUrl, opts, signal, deadline);
  const status = res.statusCode ?? 0;
  if (status < 200 || status >= 300) {
    res.resume();
    if (status === 429 || status >= 500) {
      throw new OperationalError('source_unavailable', `fetch: the source answered HTTP ${status}`);
    }
    throw err(status === 404 || status === 410 ? 'source_not_found' : 'source_http_error', `the source answered HTTP ${status}`);
  }
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > opts.maxBytes) {
    res.destroy();
    throw err('source_too_large', `the source is ${declared} bytes, over the ${opts.maxBytes}-byte limit`);
  }
  return { res, url, opts, signal, deadline };
}

/** The sniffed type of the first bytes, if `accept` takes it. */
function checkType(head: Buffer, accept: readonly SniffedType['kind'][]): SniffedType {
  const type = sniffType(head);
  if (!type) {
    const wanted = accept.includes('video') ? 'video (mp4, mov, webm)' : 'image (JPEG, PNG, GIF, WebP, AVIF, HEIF, TIFF)';
    throw err('unsupported_type', `the source is not a supported ${wanted}`);
  }
  if (!accept.includes(type.kind)) {
    const a = (k: string) => `${/^[aeiou]/.test(k) ? 'an' : 'a'} ${k}`;
    throw err('unsupported_type', `the source is ${a(type.kind)} (${type.mime}), not ${accept.map(a).join(' or ')}`);
  }
  return type;
}

/** Bytes {@link sniffType} looks at. */
const SNIFF_BYTES = 12;

function request(
  url: URL,
  opts: GuardedGetOptions,
  allowPrivate: boolean,
  signal: AbortSignal,
  deadline: AbortSignal,
): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const mod = url.protocol === 'https:' ? https : http;
    const req = mod.request(url, {
      method: 'GET',
      lookup: guardedLookup(allowPrivate, opts.resolve),
      signal,
      headers: { 'user-agent': 'image-ar-service/0.1 (+fetch)', accept: 'image/*,video/*;q=0.9,*/*;q=0.5', ...opts.headers?.(url) },
      agent: false,
    });
    const connectTimer = setTimeout(() => req.destroy(new Error('connect timeout')), opts.connectTimeoutMs);
    req.on('socket', (socket) => {
      socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer));
    });
    req.on('response', (res) => {
      clearTimeout(connectTimer);
      resolve(res);
    });
    req.on('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(connectTimer);
      reject(mapError(e, url, deadline, opts));
    });
    req.end();
  });
}

function mapError(e: NodeJS.ErrnoException, url: URL, deadline: AbortSignal, opts: GuardedGetOptions): Error {
  const cause = (e as { cause?: unknown }).cause ?? e;
  if (cause instanceof BlockedAddressError || e instanceof BlockedAddressError) {
    return err('private_address', (cause as Error).message);
  }
  if (deadline.aborted) return err('source_timeout', `no complete answer from ${url.host} within ${opts.timeoutMs} ms`);
  if (e.name === 'AbortError') return new OperationalError('aborted', 'fetch: interrupted');
  if (e.message === 'connect timeout') return err('source_timeout', `could not connect to ${url.host} within ${opts.connectTimeoutMs} ms`);
  if (e.code === 'ENOTFOUND' || e.code === 'EAI_NODATA' || e.code === 'EAI_NONAME') {
    return err('dns_failure', `the host ${url.hostname} does not resolve`);
  }
  if (e.code === 'EAI_AGAIN') return new OperationalError('dns_unavailable', `fetch: DNS lookup of ${url.hostname} failed temporarily`);
  if (e.code === 'ECONNREFUSED') return err('source_unreachable', `${url.host} refused the connection`);
  if (e.code?.startsWith('ERR_TLS') || e.code?.includes('CERT'))
    return err('source_tls_error', `TLS error talking to ${url.host}: ${e.message}`);
  return new OperationalError('source_network_error', `fetch: network error talking to ${url.host}: ${e.code ?? e.message}`);
}

function readCapped(res: http.IncomingMessage, maxBytes: number, signal: AbortSignal, deadline: AbortSignal): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onAbort = () => res.destroy(new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    res.on('data', (c: Buffer) => {
      size += c.length;
      if (size > maxBytes) {
        res.destroy();
        signal.removeEventListener('abort', onAbort);
        reject(err('source_too_large', `the source is over the ${maxBytes}-byte limit`));
        return;
      }
      chunks.push(c);
    });
    res.on('end', () => {
      signal.removeEventListener('abort', onAbort);
      resolve(Buffer.concat(chunks, size));
    });
    res.on('error', (e) => {
      signal.removeEventListener('abort', onAbort);
      reject(bodyError(e, signal, deadline));
    });
  });
}

/** A body stream's error: the deadline (a user error: too slow), our abort, or a lost connection (retried). */
function bodyError(e: Error, signal: AbortSignal, deadline: AbortSignal): Error {
  if (deadline.aborted) return err('source_timeout', 'the download took too long');
  if (signal.aborted) return new OperationalError('aborted', 'fetch: interrupted');
  return new OperationalError('source_network_error', `fetch: connection lost: ${e.message}`);
}

/**
 * Writes the body to `file` as it comes, pausing the socket while the disk catches up: memory stays at a
 * few chunks whatever the size. The cap and the type (from the first bytes) are checked on the wire.
 */
function streamCapped(
  res: http.IncomingMessage,
  file: string,
  opts: { maxBytes: number; accept: readonly SniffedType['kind'][] },
  signal: AbortSignal,
  deadline: AbortSignal,
): Promise<{ size: number; type: SniffedType }> {
  return new Promise((resolve, reject) => {
    const out = createWriteStream(file, { flags: 'w', mode: 0o600 });
    let size = 0;
    let head: Buffer | undefined = Buffer.alloc(0);
    let type: SniffedType | undefined;
    let settled = false;
    const finish = (e?: Error) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      if (e) {
        res.destroy();
        out.destroy();
        // The file is closed before the caller removes it.
        out.once('close', () => reject(e));
        if (out.closed) reject(e);
      } else {
        // Resolved once the file is flushed and closed, for the tools that read it next.
        out.once('close', () => (writeError ? reject(writeError) : resolve({ size, type: type! })));
        out.end();
      }
    };
    let writeError: Error | undefined;
    const onAbort = () => res.destroy(new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    res.on('data', (c: Buffer) => {
      if (settled) return;
      size += c.length;
      if (size > opts.maxBytes) return finish(err('source_too_large', `the source is over the ${opts.maxBytes}-byte limit`));
      if (head) {
        head = Buffer.concat([head, c]);
        if (head.length >= SNIFF_BYTES) {
          try {
            type = checkType(head, opts.accept);
          } catch (e) {
            return finish(e as Error);
          }
          head = undefined;
        }
      }
      if (!out.write(c)) {
        res.pause();
        out.once('drain', () => res.resume());
      }
    });
    res.on('end', () => {
      if (settled) return;
      try {
        type ??= checkType(head ?? Buffer.alloc(0), opts.accept);
      } catch (e) {
        return finish(e as Error);
      }
      finish();
    });
    res.on('error', (e) => finish(bodyError(e, signal, deadline)));
    out.on('error', (e) => {
      writeError = new OperationalError('source_write_failed', `fetch: could not write the download: ${e.message}`);
      finish(writeError);
    });
  });
}
