import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DataDeletionRepository } from '@app/persistence';
import { STORAGE } from '@app/runtime';
import { assertSafeKey, type StoragePort } from '@app/storage';
import { ApiError } from '../http/api-error';
import { ErrorResponseDto } from '../v1/v1.dto';

/**
 * Serves stored files (local storage) at a stable path: right Content-Type, long-lived Cache-Control
 * (keys never change content), ETag with If-None-Match, and single byte ranges (phones stream models).
 */
@ApiTags('files')
@Controller('files')
export class FilesController {
  constructor(
    @Inject(STORAGE) private readonly storage: StoragePort,
    private readonly deletions: DataDeletionRepository,
  ) {}

  /** 410 for the files of a deleted job (its tombstone), 404 otherwise. Uploads are not tied to a job id. */
  private async missing(key: string): Promise<ApiError> {
    const jobId = /^(?:models|motion)\/((?:api|v2)_[a-z2-7]{1,60})\//.exec(key)?.[1];
    if (jobId && (await this.deletions.tombstone({ id: jobId }))) return new ApiError(410, 'not_found', 'resource_deleted', 'file: its job has been deleted');
    return ApiError.notFound('file');
  }

  /** Fastify answers HEAD from this route too (exposeHeadRoutes): same headers, body dropped. */
  @ApiOperation({ summary: 'Stored models and posters (local storage): Content-Type, ETag, Range' })
  @ApiResponse({ status: 404, type: ErrorResponseDto })
  @ApiResponse({ status: 410, type: ErrorResponseDto, description: 'resource_deleted: the file belonged to a job that was deleted (DELETE /api/v2/jobs/{id}, retention, or its user deleted).' })
  @Get('*')
  async serve(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const key = decodeURIComponent((req.url.split('?')[0] ?? '').replace(/^\/files\//, ''));
    try {
      assertSafeKey(key);
    } catch {
      throw ApiError.notFound('file');
    }
    const stat = await this.storage.stat(key);
    if (key.endsWith('.meta') || key.endsWith('.tmp')) throw ApiError.notFound('file');
    if (!stat) throw await this.missing(key);
    reply
      .header('content-type', stat.contentType)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('etag', stat.etag)
      .header('last-modified', stat.lastModified.toUTCString())
      .header('accept-ranges', 'bytes')
      .header('access-control-allow-origin', '*')
      .header('x-content-type-options', 'nosniff');
    const inm = req.headers['if-none-match'];
    if (inm && inm.split(',').map((s) => s.trim()).includes(stat.etag)) {
      void reply.status(304).send();
      return;
    }
    const range = req.headers.range;
    if (range) {
      const m = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
      let start = m && m[1] !== '' ? Number(m[1]) : NaN;
      let end = m && m[2] !== '' ? Number(m[2]) : stat.size - 1;
      if (m && m[1] === '' && m[2] !== '') {
        start = Math.max(0, stat.size - Number(m[2]));
        end = stat.size - 1;
      }
      end = Math.min(end, stat.size - 1);
      if (!m || !Number.isFinite(start) || start > end || start >= stat.size) {
        void reply.status(416).header('content-range', `bytes */${stat.size}`).send();
        return;
      }
      reply.status(206).header('content-range', `bytes ${start}-${end}/${stat.size}`).header('content-length', String(end - start + 1));
      void reply.send(await this.storage.read(key, { start, end }));
      return;
    }
    reply.status(200).header('content-length', String(stat.size));
    void reply.send(await this.storage.read(key));
  }
}
