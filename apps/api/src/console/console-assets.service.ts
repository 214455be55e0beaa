import { Injectable, NotFoundException } from '@nestjs/common';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { FastifyReply } from 'fastify';
import { loadStaticAsset, repoRoot, type StaticAsset } from '../http/static-asset';

/** The console's client files, hand-written (no build step): apps/console/. */
export const CONSOLE_FILES = { 'console.js': 'application/javascript; charset=utf-8', 'console.css': 'text/css; charset=utf-8' } as const;

interface Asset extends StaticAsset {
  gzip: Buffer;
  type: string;
}

/** Loads apps/console/* once, gzips it once, and serves it with an ETag. */
@Injectable()
export class ConsoleAssets {
  private readonly files = new Map<string, Asset>(
    Object.entries(CONSOLE_FILES).map(([name, type]) => {
      const asset = loadStaticAsset(join(repoRoot(), 'apps/console', name));
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
