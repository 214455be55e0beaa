import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig, randomBase62 } from './index';

const tmp = () => mkdtempSync(join(tmpdir(), 'cfg-'));

describe('loadConfig', () => {
  it('gives the embedded defaults and generates an owner key kept under DATA_DIR', () => {
    const dir = tmp();
    const c = loadConfig({ DATA_DIR: dir });
    expect(c).toMatchObject({ mode: 'embedded', role: 'all', port: 3000, host: '0.0.0.0', publicBaseUrl: 'http://localhost:3000', allowPrivateNetworks: false });
    expect(c.worker.concurrency).toBe(2);
    expect(c.worker.stageTimeoutMs).toBe(600_000);
    expect(c.animated).toMatchObject({ maxSourceFrames: 1000, maxSourcePixels: 4_000_000_000 });
    expect(c.ownerApiKeySource).toBe('generated');
    expect(readFileSync(join(dir, 'owner-api-key'), 'utf8').trim()).toBe(c.ownerApiKey);
    expect(statSync(join(dir, 'owner-api-key')).mode & 0o777).toBe(0o600);
    const again = loadConfig({ DATA_DIR: dir });
    expect(again.ownerApiKey).toBe(c.ownerApiKey);
    expect(again.ownerApiKeySource).toBe('data-dir');
    expect(Object.isFrozen(c) && Object.isFrozen(c.worker)).toBe(true);
  });

  it('reads the fixed names', () => {
    const c = loadConfig({
      PORT: '8080', HOST: '127.0.0.1', PUBLIC_BASE_URL: 'https://ar.example.com/', DATA_DIR: tmp(),
      DATABASE_URL: 'postgres://u@h/db', REDIS_URL: 'redis://h:6379', OWNER_API_KEY: 'owner-key-0123456789',
      ALLOW_PRIVATE_NETWORKS: 'true', WORKER_CONCURRENCY: '4',
    }, ['--role', 'worker']);
    expect(c).toMatchObject({ mode: 'scaled', role: 'worker', port: 8080, host: '127.0.0.1', publicBaseUrl: 'https://ar.example.com', ownerApiKey: 'owner-key-0123456789', ownerApiKeySource: 'env', allowPrivateNetworks: true });
    expect(c.worker.concurrency).toBe(4);
  });

  it('lists every problem in one clear error', () => {
    expect(() => loadConfig({ PORT: 'abc', WORKER_CONCURRENCY: '0', DATABASE_URL: 'mysql://x' })).toThrow(ConfigError);
    try {
      loadConfig({ PORT: 'abc', WORKER_CONCURRENCY: '0', DATABASE_URL: 'mysql://x' });
    } catch (e) {
      const m = (e as Error).message;
      expect(m).toContain('PORT');
      expect(m).toContain('WORKER_CONCURRENCY');
      expect(m).toContain('DATABASE_URL');
    }
    expect(() => loadConfig({ DATA_DIR: tmp(), DATABASE_URL: 'postgres://h/db' })).toThrow('needs both DATABASE_URL and REDIS_URL');
    expect(() => loadConfig({ DATA_DIR: tmp() }, ['--role', 'api'])).toThrow('--role api runs a separate process');
    expect(() => loadConfig({ DATA_DIR: tmp() }, ['--role', 'x'])).toThrow('--role must be one of');
    expect(() => loadConfig({ DATA_DIR: tmp(), STORAGE_DRIVER: 's3' })).toThrow('S3_BUCKET');
  });

  it('reads a config file and rejects unknown keys in it', () => {
    const dir = tmp();
    const f = join(dir, 'c.json');
    writeFileSync(f, JSON.stringify({ plugins: ['./p.js'], pipelines: { 'v1.convert': 'x' } }));
    const c = loadConfig({ DATA_DIR: dir, CONFIG_FILE: f });
    expect(c.plugins.modules).toEqual([join(dir, 'p.js')]);
    expect(c.plugins.pipelines).toEqual({ 'v1.convert': 'x' });
    writeFileSync(f, JSON.stringify({ plugin: [] }));
    expect(() => loadConfig({ DATA_DIR: dir, CONFIG_FILE: f })).toThrow(/invalid CONFIG_FILE[\s\S]*plugin/);
  });

  it('makes base62 strings', () => {
    const s = randomBase62(40);
    expect(s).toMatch(/^[A-Za-z0-9]{40}$/);
    expect(randomBase62(40)).not.toBe(s);
  });
});
