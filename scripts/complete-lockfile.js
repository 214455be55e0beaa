#!/usr/bin/env node
// The npm registry mirror this project is built against serves only the Linux builds of some native
// packages (@swc/core-*, @msgpackr-extract/*). `npm install` then leaves the other platforms' optional
// packages out of package-lock.json, and `npm ci` refuses the lock file ("Missing: … from lock file").
// This adds a stub entry (version + os/cpu, no tarball) for each missing optional platform package, so
// `npm ci` accepts the lock and skips them as foreign platforms, as it does on the public registry.
// Run after every `npm install` that changes package-lock.json: `node scripts/complete-lockfile.js`.
const { readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const file = join(__dirname, '..', 'package-lock.json');
const lock = JSON.parse(readFileSync(file, 'utf8'));

function platformOf(name) {
  const os = /darwin/.test(name)
    ? 'darwin'
    : /win32/.test(name)
      ? 'win32'
      : /freebsd/.test(name)
        ? 'freebsd'
        : /android/.test(name)
          ? 'android'
          : 'linux';
  const cpu = /arm64/.test(name)
    ? 'arm64'
    : /ia32/.test(name)
      ? 'ia32'
      : /ppc64/.test(name)
        ? 'ppc64'
        : /s390x/.test(name)
          ? 's390x'
          : /riscv64/.test(name)
            ? 'riscv64'
            : /(-arm-|-arm$|gnueabihf)/.test(name)
              ? 'arm'
              : 'x64';
  return { os: [os], cpu: [cpu] };
}

let added = 0;
for (const [path, pkg] of Object.entries(lock.packages)) {
  if (!path || !pkg.optionalDependencies) continue;
  for (const [name, version] of Object.entries(pkg.optionalDependencies)) {
    const nested = `${path}/node_modules/${name}`;
    const hoisted = `node_modules/${name}`;
    if (lock.packages[nested] || lock.packages[hoisted]) continue;
    if (!/(darwin|win32|linux|freebsd|android)/.test(name)) continue; // only platform builds
    lock.packages[hoisted] = { version, ...(pkg.dev ? { dev: true } : {}), optional: true, ...platformOf(name) };
    added++;
  }
}
writeFileSync(file, JSON.stringify(lock, null, 2) + '\n');
console.log(`complete-lockfile: added ${added} stub entr${added === 1 ? 'y' : 'ies'}`);
