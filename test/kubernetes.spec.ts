import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadAll } from 'js-yaml';
import { envSchema, loadConfig } from '@app/config';
import { BACKLOG_METRIC } from '../libs/runtime/src/backlog-gauge';
import { ROOT } from './support/app-process';

/**
 * deploy/kubernetes (docs/deployment.md#kubernetes): both overlays render with `kubectl kustomize`, every
 * object checks against its schema (deploy/kubernetes/validate.mjs: kubernetes-models and the KEDA and
 * Prometheus Operator models), and what the schemas cannot see holds: names that refer to each other match,
 * the probes use the service's health routes, pods that run jobs get the drain time, the ScaledObject asks for
 * the metric the service exports, every variable is one libs/config reads and the set boots.
 * kubectl (1.27+, with Kustomize 5) is on the development and CI machines; without it this file fails.
 */

type Obj = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [k: string]: any;
};
type Overlay = 'embedded' | 'scaled';

const KUSTOMIZE = join(ROOT, 'deploy/kubernetes');
const NODE = process.execPath;

function kubectl(): string {
  const r = spawnSync('kubectl', ['version', '--client', '-o', 'json'], { encoding: 'utf8' });
  if (r.error || r.status !== 0) {
    throw new Error(
      `kubectl not found or not working (${r.error?.message ?? r.stderr}): test/kubernetes.spec.ts renders deploy/kubernetes with ` +
        '`kubectl kustomize`. Install kubectl 1.27 or later (it bundles Kustomize 5) on PATH.',
    );
  }
  return JSON.parse(r.stdout).kustomizeVersion as string;
}

function render(overlay: Overlay): Obj[] {
  const out = execFileSync('kubectl', ['kustomize', join(KUSTOMIZE, 'overlays', overlay)], { encoding: 'utf8' });
  return (loadAll(out) as Obj[]).filter(Boolean);
}

/** Runs validate.mjs on objects: one result per object, `error` null when it matches its schema. */
function validate(objs: unknown[]): { kind: string; name: string; error: string | null }[] {
  const r = spawnSync(NODE, [join(KUSTOMIZE, 'validate.mjs'), '--stdin'], { input: JSON.stringify(objs), encoding: 'utf8' });
  if (!r.stdout) throw new Error(`validate.mjs printed nothing: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

const one = (objs: Obj[], kind: string, name: string): Obj => {
  const found = objs.filter((o) => o.kind === kind && o.metadata.name === name);
  if (found.length !== 1) throw new Error(`${kind}/${name}: ${found.length} rendered`);
  return found[0];
};
const matches = (selector: Record<string, string>, labels: Record<string, string> = {}) =>
  Object.entries(selector).every(([k, v]) => labels[k] === v);
const workloads = (objs: Obj[]) => objs.filter((o) => o.kind === 'Deployment');
const containers = (d: Obj): any[] => d.spec.template.spec.containers;

/** The package.json script's command, less its `npm run build`: what the container must run. */
function scriptCommand(script: string): string[] {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  return pkg.scripts[script].split('&&').pop().trim().split(/\s+/);
}

/** Keys of `kubectl create secret generic image-ar-secrets` in the docs' walk-through, per overlay. */
function documentedSecretKeys(overlay: Overlay): string[] {
  const doc = readFileSync(join(ROOT, 'docs/deployment.md'), 'utf8');
  const blocks = [...doc.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
  const block = blocks.find((b) => b.includes('create secret generic image-ar-secrets') && b.includes(`overlays/${overlay}`));
  if (!block) throw new Error(`docs/deployment.md: no walk-through block creating image-ar-secrets for overlays/${overlay}`);
  return [...block.matchAll(/--from-literal=([A-Z0-9_]+)=/g)].map((m) => m[1]);
}

/** A value for each secret key that passes the configuration schema (the walk-through generates real ones). */
const SAMPLE: Record<string, string> = {
  DATABASE_URL: 'postgres://ar:pw@postgres.example.internal:5432/ar',
  REDIS_URL: 'redis://redis.example.internal:6379',
  OWNER_API_KEY: 'owner-key-0123456789abcdef',
  METRICS_TOKEN: 'metrics-token-0123456789',
  CONNECTIONS_SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
  S3_ENDPOINT: 'https://s3.example.com',
  S3_REGION: 'eu-west-1',
  S3_BUCKET: 'ar-files',
  S3_ACCESS_KEY_ID: 'AKIAEXAMPLE',
  S3_SECRET_ACCESS_KEY: 'secret',
  S3_PUBLIC_BASE_URL: 'https://files.example.com/ar-files',
};

/** The environment a container gets: its ConfigMaps and Secrets (documented keys, sample values), then `env`. */
function containerEnv(objs: Obj[], c: any, overlay: Overlay): Record<string, string> {
  const env: Record<string, string> = {};
  for (const from of c.envFrom ?? []) {
    if (from.configMapRef) Object.assign(env, one(objs, 'ConfigMap', from.configMapRef.name).data);
    if (from.secretRef) {
      expect(from.secretRef.name).toBe('image-ar-secrets');
      for (const k of documentedSecretKeys(overlay)) env[k] = SAMPLE[k] ?? 'x';
    }
  }
  for (const e of c.env ?? []) env[e.name] = e.value;
  return env;
}

let rendered: Record<Overlay, Obj[]>;

beforeAll(() => {
  expect(kubectl()).toMatch(/^v5\./);
  rendered = { embedded: render('embedded'), scaled: render('scaled') };
});

describe('deploy/kubernetes renders and matches the schemas', () => {
  it.each(['embedded', 'scaled'] as const)('%s: every object has a schema and is valid, all in one namespace', (overlay) => {
    const objs = rendered[overlay];
    const results = validate(objs);
    expect(results).toHaveLength(objs.length);
    expect(results.filter((r) => r.error)).toEqual([]);
    const kinds = new Set(objs.map((o) => o.kind));
    for (const k of ['Namespace', 'ConfigMap', 'Deployment', 'Service', 'ServiceMonitor', 'NetworkPolicy']) expect(kinds).toContain(k);
    if (overlay === 'scaled') for (const k of ['ScaledObject', 'PodDisruptionBudget']) expect(kinds).toContain(k);
    if (overlay === 'embedded') expect(kinds).toContain('PersistentVolumeClaim');
    const ns = one(objs, 'Namespace', 'image-ar').metadata.name;
    for (const o of objs.filter((x) => x.kind !== 'Namespace'))
      expect(`${o.kind}/${o.metadata.name} in ${o.metadata.namespace}`).toBe(`${o.kind}/${o.metadata.name} in ${ns}`);
  });

  it('the schema check refuses broken objects (wrong types, a missing required field, an unknown kind)', () => {
    const scaled = rendered.scaled;
    const deployment = structuredClone(one(scaled, 'Deployment', 'image-ar-worker'));
    deployment.spec.template.spec.containers[0].ports[0].containerPort = 'nine';
    const scaledObject = structuredClone(one(scaled, 'ScaledObject', 'image-ar-worker'));
    delete scaledObject.spec.scaleTargetRef;
    const monitor = structuredClone(one(scaled, 'ServiceMonitor', 'image-ar-api'));
    monitor.spec.endpoints = 'http';
    const unknown = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } };
    const results = validate([deployment, scaledObject, monitor, unknown]);
    expect(results.map((r) => r.error)).toEqual([
      expect.stringMatching(/containerPort must be integer/),
      expect.stringMatching(/scaleTargetRef/),
      expect.stringMatching(/endpoints must be array/),
      'no schema for example.com/v1 Widget',
    ]);
  });

  it('validate.mjs renders both overlays itself (what an operator runs) and passes them', () => {
    const r = spawnSync(NODE, [join(KUSTOMIZE, 'validate.mjs')], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const results = JSON.parse(r.stdout) as { overlay: string }[];
    expect(results.filter((x) => x.overlay === 'embedded')).toHaveLength(rendered.embedded.length);
    expect(results.filter((x) => x.overlay === 'scaled')).toHaveLength(rendered.scaled.length);
  });
});

describe('deploy/kubernetes: what the schemas cannot see', () => {
  it.each(['embedded', 'scaled'] as const)(
    '%s: references resolve (Services, ServiceMonitors, PDBs, NetworkPolicies select real pods and ports)',
    (overlay) => {
      const objs = rendered[overlay];
      const pods = workloads(objs).map((d) => ({
        labels: d.spec.template.metadata.labels,
        ports: containers(d).flatMap((c) => c.ports ?? []),
      }));
      for (const d of workloads(objs)) expect(matches(d.spec.selector.matchLabels, d.spec.template.metadata.labels)).toBe(true);
      const services = objs.filter((o) => o.kind === 'Service');
      for (const s of services) {
        const selected = pods.filter((p) => matches(s.spec.selector, p.labels));
        expect(`${s.metadata.name}: ${selected.length}`).toBe(`${s.metadata.name}: 1`);
        for (const port of s.spec.ports) expect(selected[0].ports.map((p: any) => p.name)).toContain(port.targetPort);
      }
      for (const m of objs.filter((o) => o.kind === 'ServiceMonitor')) {
        const svc = services.filter((s) => matches(m.spec.selector.matchLabels, s.metadata.labels));
        expect(svc).toHaveLength(1);
        for (const e of m.spec.endpoints) {
          expect(svc[0].spec.ports.map((p: any) => p.name)).toContain(e.port);
          expect(e.path).toBe('/metrics');
          expect(e.authorization).toEqual({ type: 'Bearer', credentials: { name: 'image-ar-secrets', key: 'METRICS_TOKEN' } });
        }
      }
      for (const p of objs.filter((o) => o.kind === 'PodDisruptionBudget')) {
        expect(pods.filter((x) => matches(p.spec.selector.matchLabels, x.labels))).toHaveLength(1);
      }
      const policies = objs.filter((o) => o.kind === 'NetworkPolicy');
      expect(policies.some((p) => Object.keys(p.spec.podSelector).length === 0 && !p.spec.ingress)).toBe(true);
      for (const pod of pods) {
        const allowing = policies.filter((p) => p.spec.ingress && matches(p.spec.podSelector.matchLabels ?? {}, pod.labels));
        const allowed = allowing.flatMap((p) => p.spec.ingress.flatMap((i: any) => i.ports.map((x: any) => x.port)));
        expect(allowed.sort()).toEqual(pod.ports.map((p: any) => p.name).sort());
      }
    },
  );

  it.each(['embedded', 'scaled'] as const)('%s: probes on the health routes, resource requests, the non-root image user', (overlay) => {
    for (const d of workloads(rendered[overlay])) {
      const pod = d.spec.template.spec;
      expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
      for (const c of containers(d)) {
        expect(c.image).toMatch(/^image-ar-service(:|$)/);
        expect(c.resources.requests).toEqual({ cpu: expect.anything(), memory: expect.anything() });
        expect(c.resources.limits.memory).toBeDefined();
        if (d.metadata.name === 'image-ar-api') {
          expect(c.startupProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
          expect(c.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
          expect(c.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
          expect(c.ports).toEqual([{ name: 'http', containerPort: 3000 }]);
        } else {
          // Workers serve no /healthz: their metrics server listening is the sign of life.
          expect(c.startupProbe.tcpSocket).toEqual({ port: 'metrics' });
          expect(c.livenessProbe.tcpSocket).toEqual({ port: 'metrics' });
        }
      }
    }
  });

  it.each(['embedded', 'scaled'] as const)(
    '%s: each container runs the package.json command of its role, with a configuration that boots',
    (overlay) => {
      const objs = rendered[overlay];
      const expected: Record<string, { script: string; role: string }> =
        overlay === 'embedded'
          ? { 'image-ar-api': { script: 'start', role: 'all' } }
          : { 'image-ar-api': { script: 'start:api', role: 'api' }, 'image-ar-worker': { script: 'start:worker', role: 'worker' } };
      expect(
        workloads(objs)
          .map((d) => d.metadata.name)
          .sort(),
      ).toEqual(Object.keys(expected).sort());
      // The image's CMD (Dockerfile) is the embedded command; test/containers.spec.ts checks it against `npm start`.
      const imageCmd = ['node', 'dist/apps/api/src/main.js'];
      for (const d of workloads(objs)) {
        const c = containers(d)[0];
        const { script, role } = expected[d.metadata.name];
        expect([...(c.command ?? imageCmd), ...(c.args ?? [])]).toEqual(scriptCommand(script));
        const env = containerEnv(objs, c, overlay);
        const known = Object.keys(envSchema.shape);
        for (const name of Object.keys(env)) expect(known).toContain(name);
        const config = loadConfig(env, role === 'all' ? [] : ['--role', role], ROOT, false);
        expect(config.mode).toBe(overlay);
        expect(config.ownerApiKeySource).toBe('env');
        expect(config.connections.secretKeySource).toBe('env');
        expect(config.metrics.token).toBeDefined();
        expect(config.storage.driver).toBe(overlay === 'scaled' ? 's3' : 'local');
        if (role === 'worker')
          expect(String(config.metrics.port)).toBe(c.ports.find((p: any) => p.name === 'metrics').containerPort.toString());
        // Where the embedded mode keeps its database and files is the claim's mount.
        if (overlay === 'embedded') {
          const mount = c.volumeMounts.find((m: any) => m.mountPath === env.DATA_DIR);
          const volume = d.spec.template.spec.volumes.find((v: any) => v.name === mount.name);
          expect(volume.persistentVolumeClaim.claimName).toBe(
            one(objs, 'PersistentVolumeClaim', volume.persistentVolumeClaim.claimName).metadata.name,
          );
          expect(d.spec.replicas).toBe(1);
          expect(d.spec.strategy.type).toBe('Recreate');
        }
      }
    },
  );

  it.each(['embedded', 'scaled'] as const)(
    '%s: pods that run jobs get terminationGracePeriodSeconds >= the drain (SHUTDOWN_TIMEOUT_MS, the hand-back, the close)',
    (overlay) => {
      const objs = rendered[overlay];
      const runsJobs = overlay === 'embedded' ? ['image-ar-api'] : ['image-ar-worker'];
      for (const name of runsJobs) {
        const d = one(objs, 'Deployment', name);
        const c = containers(d)[0];
        const config = loadConfig(containerEnv(objs, c, overlay), overlay === 'embedded' ? [] : ['--role', 'worker'], ROOT, false);
        const preStop = Number(c.lifecycle?.preStop?.exec?.command?.[1] ?? 0);
        // The queue's stop(): SHUTDOWN_TIMEOUT_MS, then up to 5 s for aborted jobs to be handed back, then up to 5 s to close Bull.
        const drainS = config.worker.shutdownTimeoutMs / 1000 + 5 + 5 + preStop;
        expect(config.worker.shutdownTimeoutMs).toBeGreaterThanOrEqual(60_000);
        expect(d.spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(drainS + 10);
      }
    },
  );

  it('scaled: KEDA scales the workers 1..N on queue_backlog_jobs, as the API exports it and a ServiceMonitor scrapes it', () => {
    const objs = rendered.scaled;
    const so = one(objs, 'ScaledObject', 'image-ar-worker');
    expect(so.spec.scaleTargetRef.name).toBe(one(objs, 'Deployment', 'image-ar-worker').metadata.name);
    expect(so.spec.minReplicaCount).toBe(1);
    expect(so.spec.maxReplicaCount).toBeGreaterThan(1);
    expect(so.spec.triggers).toHaveLength(1);
    const { type, metadata } = so.spec.triggers[0];
    expect(type).toBe('prometheus');
    expect(Number(metadata.threshold)).toBeGreaterThan(0);
    expect(metadata.ignoreNullValues).toBe('false');
    expect(so.spec.fallback.replicas).toBeGreaterThanOrEqual(so.spec.minReplicaCount);
    // The series: the metric the service registers, from the API Service in this namespace that a ServiceMonitor scrapes.
    const m = /^max\((\w+)\{namespace="([^"]+)",service="([^"]+)"\} >= 0\)$/.exec(metadata.query);
    expect(m).not.toBeNull();
    const [, metric, namespace, service] = m!;
    expect(metric).toBe(BACKLOG_METRIC);
    expect(namespace).toBe(so.metadata.namespace);
    const svc = one(objs, 'Service', service);
    expect(svc.metadata.labels?.['app.kubernetes.io/component']).toBe('api');
    expect(objs.some((o) => o.kind === 'ServiceMonitor' && matches(o.spec.selector.matchLabels, svc.metadata.labels))).toBe(true);
    // Nothing else scales the workers.
    expect(objs.filter((o) => o.kind === 'HorizontalPodAutoscaler')).toEqual([]);
  });

  it('scaled: the docs walk-through creates every secret the pods and the configuration need, and only configuration variables', () => {
    const known = Object.keys(envSchema.shape);
    for (const overlay of ['embedded', 'scaled'] as const) for (const k of documentedSecretKeys(overlay)) expect(known).toContain(k);
    expect(documentedSecretKeys('scaled')).toEqual(
      expect.arrayContaining([
        'DATABASE_URL',
        'REDIS_URL',
        'OWNER_API_KEY',
        'METRICS_TOKEN',
        'CONNECTIONS_SECRET_KEY',
        'S3_ENDPOINT',
        'S3_BUCKET',
      ]),
    );
    expect(documentedSecretKeys('embedded')).toEqual(expect.arrayContaining(['OWNER_API_KEY', 'METRICS_TOKEN']));
  });
});
