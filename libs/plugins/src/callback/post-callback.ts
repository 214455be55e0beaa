import http from 'node:http';
import https from 'node:https';
import { BlockedAddressError, guardedLookup, isBlockedHostname } from '../fetch/ssrf-guard';

export interface PostResult {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** The address is private/reserved: retrying will not help. */
  blocked: boolean;
}

/**
 * POSTs a JSON callback. Never follows redirects (a 3xx is a failure), guards the address at connect
 * time like fetch, caps the time, and reads at most 64 KB of the answer.
 */
export function postCallback(
  url: string,
  body: string,
  headers: Record<string, string>,
  opts: { timeoutMs: number; allowPrivateNetworks: boolean },
): Promise<PostResult> {
  const started = Date.now();
  const done = (statusCode: number | null, error: string | null, blocked = false): PostResult => ({
    statusCode,
    error,
    durationMs: Date.now() - started,
    blocked,
  });
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.resolve(done(null, 'invalid callback URL', true));
  }
  if (!opts.allowPrivateNetworks && isBlockedHostname(target.hostname)) {
    return Promise.resolve(done(null, `${target.hostname} is a private or reserved address`, true));
  }
  return new Promise((resolve) => {
    const mod = target.protocol === 'https:' ? https : http;
    const req = mod.request(target, {
      method: 'POST',
      lookup: guardedLookup(opts.allowPrivateNetworks),
      agent: false,
      timeout: opts.timeoutMs,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'image-ar-service-webhooks/0.1',
        'content-length': Buffer.byteLength(body),
        ...headers,
      },
    });
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${opts.timeoutMs} ms`)), opts.timeoutMs);
    req.on('response', (res) => {
      let read = 0;
      res.on('data', (c: Buffer) => {
        read += c.length;
        if (read > 64 * 1024) res.destroy();
      });
      const finish = () => {
        clearTimeout(timer);
        const code = res.statusCode ?? 0;
        resolve(
          done(
            code,
            code >= 200 && code < 300 ? null : code >= 300 && code < 400 ? `redirect (HTTP ${code}) not followed` : `HTTP ${code}`,
          ),
        );
      };
      res.on('end', finish);
      res.on('close', finish);
    });
    req.on('error', (e: Error & { code?: string; cause?: unknown }) => {
      clearTimeout(timer);
      const blocked = e instanceof BlockedAddressError || e.cause instanceof BlockedAddressError;
      resolve(done(null, blocked ? (e.cause instanceof Error ? e.cause.message : e.message) : (e.code ?? e.message), blocked));
    });
    req.end(body);
  });
}
