import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A throwaway self-signed certificate for 127.0.0.1 / localhost (openssl; test/support/tls.ts writes it to a file
 * for processes that trust it by NODE_EXTRA_CA_CERTS), so fakes of https-only APIs (WooCommerce's Basic auth, Shopify) are served over https like the real ones.
 */
export function selfSignedCertificate(): { key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'fake-tls-'));
  try {
    const keyPath = join(dir, 'key.pem');
    const certPath = join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        // P-256, not RSA: an RSA key is searched for (0.1-0.5 CPU-s each, ~3 s a run), an EC key is one random number.
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        keyPath,
        '-out',
        certPath,
        '-days',
        '2',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(keyPath), cert: readFileSync(certPath) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A `fetch` (the subset shop clients use: method, headers, string body, signal) that trusts `ca` and nothing
 * else, for clients that take a `fetch` option; the process's own trust store stays untouched (no
 * NODE_EXTRA_CA_CERTS). Like fetch it rejects on network errors and never follows redirects here.
 */
export function fetchTrusting(ca: Buffer): { fetch: typeof globalThis.fetch; close: () => void } {
  const agent = new Agent({ ca, keepAlive: true });
  const fetchFn = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, name) => (headers[name] = value));
    const body = typeof init?.body === 'string' ? init.body : undefined;
    return new Promise<Response>((resolve, reject) => {
      const req = request(url, { method: init?.method ?? 'GET', headers, agent, signal: init?.signal ?? undefined }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const out = new Headers();
          for (const [k, v] of Object.entries(res.headers)) {
            for (const one of Array.isArray(v) ? v : v === undefined ? [] : [v]) out.append(k, one);
          }
          const status = res.statusCode ?? 500;
          const empty = status === 204 || status === 304;
          resolve(new Response(empty ? null : Buffer.concat(chunks), { status, headers: out }));
        });
      });
      req.on('error', (e) => reject(new TypeError('fetch failed', { cause: e })));
      req.end(body);
    });
  };
  return { fetch: fetchFn as typeof globalThis.fetch, close: () => agent.destroy() };
}
