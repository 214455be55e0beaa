import type { AppConfig } from '@app/config';
import type { IdempotencyClaim, IdempotencyRepository } from '@app/persistence';
import { ApiError } from '../api-error';
import { canonicalJson, IdempotencyService, requestFingerprint } from './idempotency.service';

/** An in-memory stand-in for the repository port (the SQL itself is tested on PGlite and Postgres). */
class FakeRepo {
  rows = new Map<string, { fp: string; status: number | null; response: unknown }>();
  async claim(u: string, k: string, fp: string): Promise<IdempotencyClaim> {
    const r = this.rows.get(`${u}/${k}`);
    if (!r) {
      this.rows.set(`${u}/${k}`, { fp, status: null, response: null });
      return { state: 'claimed' };
    }
    if (r.fp !== fp) return { state: 'mismatch' };
    return r.status === null ? { state: 'in_progress' } : { state: 'done', status: r.status, response: r.response };
  }
  async complete(u: string, k: string, status: number, response: unknown) {
    Object.assign(this.rows.get(`${u}/${k}`)!, { status, response });
  }
  async release(u: string, k: string) {
    this.rows.delete(`${u}/${k}`);
  }
  async purgeExpired() {
    return 0;
  }
}

const config = { idempotency: { ttlMs: 86_400_000 } } as AppConfig;

describe('IdempotencyService', () => {
  it('runs once per key, replays the answer, and refuses another request under the same key', async () => {
    const svc = new IdempotencyService(new FakeRepo() as unknown as IdempotencyRepository, config);
    let runs = 0;
    const fn = async () => ({ job_id: `api_${++runs}` });
    expect(await svc.run('u', 'k', 'fp1', 202, fn)).toEqual({ body: { job_id: 'api_1' }, status: 202, replayed: false });
    expect(await svc.run('u', 'k', 'fp1', 202, fn)).toEqual({ body: { job_id: 'api_1' }, status: 202, replayed: true });
    await expect(svc.run('u', 'k', 'fp2', 202, fn)).rejects.toMatchObject({ status: 409, code: 'idempotency_key_reused' });
    expect(runs).toBe(1);
    // No key: no bookkeeping.
    await svc.run('u', undefined, 'fp1', 202, fn);
    expect(runs).toBe(2);
  });

  it('frees the key when the request fails, so a corrected retry can use it', async () => {
    const svc = new IdempotencyService(new FakeRepo() as unknown as IdempotencyRepository, config);
    await expect(
      svc.run('u', 'k', 'fp', 201, async () => {
        throw new ApiError(402, 'insufficient_credits', 'insufficient_credits', 'no');
      }),
    ).rejects.toBeInstanceOf(ApiError);
    expect((await svc.run('u', 'k', 'fp', 201, async () => 'ok')).body).toBe('ok');
  });

  it('validates the header value', () => {
    const svc = new IdempotencyService(new FakeRepo() as unknown as IdempotencyRepository, config);
    expect(svc.parseKey(undefined)).toBeUndefined();
    expect(svc.parseKey('order-42')).toBe('order-42');
    expect(() => svc.parseKey('x'.repeat(256))).toThrow(/Idempotency-Key/);
    expect(() => svc.parseKey('has space')).toThrow(/printable/);
  });

  it('fingerprints the request independent of key order', () => {
    expect(canonicalJson({ b: [1, { d: 2, c: 3 }], a: 'x' })).toBe('{"a":"x","b":[1,{"c":3,"d":2}]}');
    expect(requestFingerprint('post', '/a', { x: 1, y: 2 })).toBe(requestFingerprint('POST', '/a', { y: 2, x: 1 }));
    expect(requestFingerprint('POST', '/a', { x: 1 })).not.toBe(requestFingerprint('POST', '/b', { x: 1 }));
  });

  it('renders what JSON.stringify renders, keys sorted', () => {
    for (const v of [
      null,
      undefined,
      0,
      -1.5,
      'a"\\b\u0001',
      true,
      [],
      {},
      [[]],
      { a: [] },
      [1, 'x', null, { z: 1, a: [false] }],
      { 'b c': { y: null, x: '' } },
    ]) {
      expect(JSON.parse(canonicalJson(v))).toEqual(JSON.parse(JSON.stringify(v ?? null)));
    }
    expect(canonicalJson({ x: undefined })).toBe('{"x":null}');
  });

  it('does not recurse: a body nested 100,000 deep is fingerprinted without overflowing the stack', () => {
    const depth = 100_000;
    let deep: unknown = 'leaf';
    for (let i = 0; i < depth; i++) deep = i % 2 ? [deep] : { k: deep };
    const json = canonicalJson(deep);
    expect(json.length).toBe((depth / 2) * ('[]'.length + '{"k":}'.length) + '"leaf"'.length);
    expect(requestFingerprint('POST', '/a', deep)).toMatch(/^[0-9a-f]{64}$/);
  });
});
