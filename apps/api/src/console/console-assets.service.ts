import { Injectable, NotFoundException } from '@nestjs/common';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { FastifyReply } from 'fastify';
import { loadStaticAsset, repoRoot, type StaticAsset } from '../http/static-asset';

/**
 * The console's client files, as `npm run build` leaves them in dist/console/: console.js, the bundle of
 * apps/console/src (esbuild, scripts/build.js), and a copy of apps/console/console.css.
 */
export const CONSOLE_FILES = { 'console.js': 'application/javascript; charset=utf-8', 'console.css': 'text/css; charset=utf-8' } as const;

/** A built file; without it (no `npm run build` yet) the service does not start, and says why. */
function loadBuilt(path: string): StaticAsset {
  try {
    return loadStaticAsset(path);
  } catch (e) {
    throw new Error(`The console's ${path} is missing: run \`npm run build\` (${(e as Error).message})`);
  }
}

interface Asset extends StaticAsset {
  gzip: Buffer;
  type: string;
}

/** The folder the built console files are read from (dist/ beside the built apps, and in the image). */
const CONSOLE_DIR = 'dist/console';

/** Loads dist/console/* once, gzips it once, and serves it with an ETag. */
@Injectable()
export class ConsoleAssets {
  private readonly files = new Map<string, Asset>(
    Object.entries(CONSOLE_FILES).map(([name, type]) => {
      const asset = loadBuilt(join(repoRoot(), CONSOLE_DIR, name));
      return [name, { ...asset, gzip: gzipSync(asset.body, { level: 9 }), type }];
    }),
  );

  /** Gzipped bytes of each file (docs and the size test). */
  gzipSizes(): Record<string, number> {
    return Object.fromEntries([...this.files].map(([n, a]) => [n, a.gzip.length]));
  }

  send(name: string, reply: FastifyReply): void {
    const a = this.files.get(name);
    if (!a) throw new NotFoundException();
    const gz = /\bgzip\b/.test(String(reply.request.headers['accept-encoding'] ?? ''));
    void reply
      .header('content-type', a.type)
      .header('cache-control', 'public, max-age=300')
      .header('etag', a.etag)
      .header('vary', 'accept-encoding')
      .header('x-content-type-options', 'nosniff');
    if (reply.request.headers['if-none-match'] === a.etag) {
      void reply.code(304).send();
      return;
    }
    if (gz) void reply.header('content-encoding', 'gzip');
    void reply.send(gz ? a.gzip : a.body);
  }
}
