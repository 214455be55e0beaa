#!/usr/bin/env node
// `npm run package:wordpress`: the installable WordPress plugin, dist/integrations/image-ar.zip, with the
// folder image-ar/ at its root (what Plugins > Add New > Upload Plugin expects). The same bytes for the same
// files: entries sorted, one fixed date, no extra attributes. jszip is already a dev dependency.
import JSZip from 'jszip';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const source = join(repo, 'integrations/wordpress/image-ar');
const out = resolve(process.argv[2] ?? join(repo, 'dist/integrations/image-ar.zip'));
const DATE = new Date('2026-01-01T00:00:00Z');

/** Every file under a folder, as paths relative to it with forward slashes, sorted. */
function files(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join('/'))
    .sort();
}

const zip = new JSZip();
const names = files(source);
for (const name of names) zip.file(`image-ar/${name}`, readFileSync(join(source, name)), { date: DATE, createFolders: false });
const bytes = await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level: 9 }, platform: 'UNIX' });
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, bytes);
console.log(`${relative(repo, out)}: ${names.length} files, ${bytes.length} bytes`);
