#!/usr/bin/env node
// Checks Kubernetes objects against their API schemas: the core and apps ones with kubernetes-models, KEDA's
// with @kubernetes-models/keda, the Prometheus Operator's with @kubernetes-models/prometheus-operator (dev
// dependencies: ES modules only, hence a script of its own that test/kubernetes.spec.ts runs).
//   node deploy/kubernetes/validate.mjs            renders both overlays (kubectl kustomize) and checks every object
//   node deploy/kubernetes/validate.mjs --stdin    checks a JSON array of objects read from stdin
// Prints one JSON line: [{ overlay?, apiVersion, kind, name, error }] (error null when valid). Exit 1 if any fails.
// What the schemas check: types, required fields, enums and formats. Not unknown fields (the Kubernetes
// schemas allow them): the spec checks the fields that matter by name.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAll } from 'js-yaml';

const HERE = dirname(fileURLToPath(import.meta.url));
const OVERLAYS = ['embedded', 'scaled'];

/** The package whose models cover an API group. */
function modelModule(apiVersion) {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  if (group === 'keda.sh' || group === 'eventing.keda.sh') return `@kubernetes-models/keda/${group}/${version}`;
  if (group === 'monitoring.coreos.com') return `@kubernetes-models/prometheus-operator/${group}/${version}`;
  return group ? `kubernetes-models/${group}/${version}` : `kubernetes-models/${version}`;
}

async function check(obj) {
  const id = { apiVersion: obj?.apiVersion, kind: obj?.kind, name: obj?.metadata?.name };
  let Model;
  try {
    Model = (await import(modelModule(String(obj.apiVersion))))[obj.kind];
  } catch {
    Model = undefined;
  }
  if (typeof Model !== 'function') return { ...id, error: `no schema for ${obj?.apiVersion} ${obj?.kind}` };
  try {
    new Model(obj).validate();
    return { ...id, error: null };
  } catch (e) {
    return { ...id, error: e.message };
  }
}

async function main() {
  const results = [];
  if (process.argv.includes('--stdin')) {
    for (const obj of JSON.parse(readFileSync(0, 'utf8'))) results.push(await check(obj));
  } else {
    for (const overlay of OVERLAYS) {
      const rendered = execFileSync('kubectl', ['kustomize', join(HERE, 'overlays', overlay)], { encoding: 'utf8' });
      for (const obj of loadAll(rendered).filter(Boolean)) results.push({ overlay, ...(await check(obj)) });
    }
  }
  process.stdout.write(`${JSON.stringify(results)}\n`);
  if (results.some((r) => r.error)) process.exitCode = 1;
}

await main();
