import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig, randomBase62 } from './index';

const tmp = () => mkdtempSync(join(tmpdir(), 'cfg-'));

describe('loadConfig', () => {
  it('gives the embedded defaults and generates an owner key kept under DATA_DIR', () => {
    const dir = tmp();
    const c = loadConfig({ DATA_DIR: dir });
    expect(c).toMatchObject({
      mode: 'embedded',
      role: 'all',
      port: 3000,
      host: '0.0.0.0',
      publicBaseUrl: 'http://localhost:3000',
      allowPrivateNetworks: false,
    });
    expect(c.worker.concurrency).toBe(2);
    // Fair share: CPU and I/O slots, jobs held at once (their sum), half of those per account.
    expect(c.worker).toMatchObject({ ioConcurrency: 16, maxJobs: 18, accountMaxRunningJobs: 9 });
    expect(c.worker.stageTimeoutMs).toBe(600_000);
    expect(c.animated).toMatchObject({ maxSourceFrames: 1000, maxSourcePixels: 4_000_000_000, bgRemovalWorkers: 1 });
    expect(loadConfig({ DATA_DIR: dir, BG_REMOVAL_WORKERS: '0' }).animated.bgRemovalWorkers).toBe(0);
    expect(() => loadConfig({ DATA_DIR: dir, BG_REMOVAL_WORKERS: '17' })).toThrow(ConfigError);
    expect(c.trustProxy).toBe(false);
    expect(c.database).toEqual({ connectTimeoutMs: 5000, queryTimeoutMs: 30_000 });
    expect(c.accountMaxActiveJobs).toBe(250);
    expect(c.ownerApiKeySource).toBe('generated');
    expect(readFileSync(join(dir, 'owner-api-key'), 'utf8').trim()).toBe(c.ownerApiKey);
    expect(statSync(join(dir, 'owner-api-key')).mode & 0o777).toBe(0o600);
    const again = loadConfig({ DATA_DIR: dir });
    expect(again.ownerApiKey).toBe(c.ownerApiKey);
    expect(again.ownerApiKeySource).toBe('data-dir');
    expect(Object.isFrozen(c) && Object.isFrozen(c.worker)).toBe(true);
  });

  it('generates the connections key under DATA_DIR (0600) once, or takes CONNECTIONS_SECRET_KEY', () => {
    const dir = tmp();
    const c = loadConfig({ DATA_DIR: dir });
    expect(c.connections.secretKeySource).toBe('generated');
    expect(Buffer.from(c.connections.secretKey, 'base64')).toHaveLength(32);
    expect(readFileSync(join(dir, 'connections-secret-key'), 'utf8').trim()).toBe(c.connections.secretKey);
    expect(statSync(join(dir, 'connections-secret-key')).mode & 0o777).toBe(0o600);
    expect(loadConfig({ DATA_DIR: dir }).connections).toMatchObject({ secretKey: c.connections.secretKey, secretKeySource: 'data-dir' });
    const set = Buffer.alloc(32, 7).toString('base64');
    expect(loadConfig({ DATA_DIR: tmp(), CONNECTIONS_SECRET_KEY: set }).connections).toMatchObject({
      secretKey: set,
      secretKeySource: 'env',
    });
    expect(() => loadConfig({ DATA_DIR: tmp(), CONNECTIONS_SECRET_KEY: 'c2hvcnQ=' })).toThrow(/CONNECTIONS_SECRET_KEY: must be 32 bytes/);
    const broken = tmp();
    writeFileSync(join(broken, 'connections-secret-key'), 'not a key\n');
    expect(() => loadConfig({ DATA_DIR: broken })).toThrow(/restore it from a backup/);
    expect(c.connections.shopifyAdminBaseUrl).toBeUndefined();
    expect(loadConfig({ DATA_DIR: dir, SHOPIFY_ADMIN_BASE_URL: 'https://127.0.0.1:8443/' }).connections.shopifyAdminBaseUrl).toBe(
      'https://127.0.0.1:8443',
    );
    expect(c.connections.retryBackoffMs).toBe(500);
    expect(loadConfig({ DATA_DIR: dir, SHOP_RETRY_BACKOFF_MS: '20' }).connections.retryBackoffMs).toBe(20);
  });

  it('keeps jobs forever unless RETENTION_DAYS is set, and reads it as milliseconds', () => {
    const dir = tmp();
    expect(loadConfig({ DATA_DIR: dir }).retention).toEqual({ maxAgeMs: null, sweepIntervalMs: 3_600_000, batchSize: 100 });
    expect(
      loadConfig({ DATA_DIR: dir, RETENTION_DAYS: '30', RETENTION_SWEEP_INTERVAL_S: '60', RETENTION_BATCH_SIZE: '10' }).retention,
    ).toEqual({ maxAgeMs: 30 * 86_400_000, sweepIntervalMs: 60_000, batchSize: 10 });
    expect(loadConfig({ DATA_DIR: dir, RETENTION_DAYS: '0.5' }).retention.maxAgeMs).toBe(43_200_000);
    expect(() => loadConfig({ DATA_DIR: dir, RETENTION_DAYS: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dir, RETENTION_DAYS: 'soon' })).toThrow(ConfigError);
  });

  it('reads the fixed names', () => {
    const c = loadConfig(
      {
        PORT: '8080',
        HOST: '127.0.0.1',
        PUBLIC_BASE_URL: 'https://ar.example.com/',
        DATA_DIR: tmp(),
        DATABASE_URL: 'postgres://u@h/db',
        REDIS_URL: 'redis://h:6379',
        OWNER_API_KEY: 'owner-key-0123456789',
        ALLOW_PRIVATE_NETWORKS: 'true',
        WORKER_CONCURRENCY: '4',
      },
      ['--role', 'worker'],
    );
    expect(c).toMatchObject({
      mode: 'scaled',
      role: 'worker',
      port: 8080,
      host: '127.0.0.1',
      publicBaseUrl: 'https://ar.example.com',
      ownerApiKey: 'owner-key-0123456789',
      ownerApiKeySource: 'env',
      allowPrivateNetworks: true,
    });
    expect(c.worker.concurrency).toBe(4);
    // Reached over https: browsers are told to stay on it; over http nothing is sent.
    expect(c.hsts).toBe('max-age=31536000; includeSubDomains');
    expect(loadConfig({ DATA_DIR: tmp(), PUBLIC_BASE_URL: 'http://ar.example.com' }).hsts).toBeNull();
    expect(loadConfig({ DATA_DIR: tmp(), WORKER_CONCURRENCY: '1', WORKER_IO_CONCURRENCY: '4', WORKER_MAX_JOBS: '3' }).worker).toMatchObject(
      { concurrency: 1, ioConcurrency: 4, maxJobs: 3, accountMaxRunningJobs: 2 },
    );
    expect(loadConfig({ DATA_DIR: tmp(), ACCOUNT_MAX_RUNNING_JOBS: '1' }).worker.accountMaxRunningJobs).toBe(1);
    expect(() => loadConfig({ DATA_DIR: tmp(), WORKER_IO_CONCURRENCY: '0' })).toThrow(/WORKER_IO_CONCURRENCY/);
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

  it('reads TRUST_PROXY as false, true, a hop count or a list of proxies, and refuses bad entries', () => {
    const trust = (v: string) => loadConfig({ DATA_DIR: tmp(), OWNER_API_KEY: 'owner-key-0123456789', TRUST_PROXY: v }).trustProxy;
    expect(trust('false')).toBe(false);
    expect(trust('0')).toBe(false);
    expect(trust('true')).toBe(true);
    expect(trust('TRUE')).toBe(true);
    expect(trust('2')).toBe(2);
    expect(trust('10.0.0.1')).toEqual(['10.0.0.1']);
    expect(trust(' 10.0.0.0/8, 192.168.1.1 ,loopback,linklocal,uniquelocal,fd00::/8,::1')).toEqual([
      '10.0.0.0/8',
      '192.168.1.1',
      'loopback',
      'linklocal',
      'uniquelocal',
      'fd00::/8',
      '::1',
    ]);
    expect(() => trust('proxy.example.com')).toThrow(ConfigError);
    expect(() => trust('10.0.0.1,yes-please')).toThrow(/TRUST_PROXY: "yes-please" is not an IP address/);
    expect(() => trust('10.0.0.1, 10.0.0.0/8x')).toThrow(/TRUST_PROXY/);
    // Shaped like addresses but not ones: Fastify would refuse them at listen time, so config refuses them first.
    for (const v of ['999.1.1.1', '10.0.0.0/33', '::1/129', '::::', '10.0.0.1/8/8']) expect(() => trust(v)).toThrow(/TRUST_PROXY/);
  });

  it('reads the database timeouts and the per-account active job cap', () => {
    const c = loadConfig({ DATA_DIR: tmp(), DB_CONNECT_TIMEOUT_MS: '1500', DB_QUERY_TIMEOUT_MS: '60000', ACCOUNT_MAX_ACTIVE_JOBS: '0' });
    expect(c.database).toEqual({ connectTimeoutMs: 1500, queryTimeoutMs: 60_000 });
    expect(c.accountMaxActiveJobs).toBe(0);
    expect(() => loadConfig({ DATA_DIR: tmp(), DB_QUERY_TIMEOUT_MS: '5' })).toThrow(/DB_QUERY_TIMEOUT_MS/);
    expect(() => loadConfig({ DATA_DIR: tmp(), ACCOUNT_MAX_ACTIVE_JOBS: '-1' })).toThrow(/ACCOUNT_MAX_ACTIVE_JOBS/);
  });

  it('reads the log format (json unless on a terminal) and the metrics settings', () => {
    const dir = tmp();
    expect(loadConfig({ DATA_DIR: dir })).toMatchObject({ logFormat: 'json', metrics: { token: undefined, port: undefined } });
    expect(loadConfig({ DATA_DIR: dir }, [], process.cwd(), true).logFormat).toBe('pretty');
    expect(loadConfig({ DATA_DIR: dir, LOG_FORMAT: 'json' }, [], process.cwd(), true).logFormat).toBe('json');
    expect(loadConfig({ DATA_DIR: dir, METRICS_TOKEN: 'metrics-token-0123456789', METRICS_PORT: '9464' }).metrics).toEqual({
      token: 'metrics-token-0123456789',
      port: 9464,
    });
    expect(() => loadConfig({ DATA_DIR: dir, LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT/);
    expect(() => loadConfig({ DATA_DIR: dir, METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
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
