import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DataDeletionRepository } from '@app/persistence';
import { STORAGE } from '@app/runtime';
import { assertSafeKey, type StoragePort, STORED_FILE_CACHE_CONTROL } from '@app/storage';
import { ApiError } from '../http/api-error';
import { etagMatches } from '../http/etag-match';
import { ErrorResponseDto } from '../http/error.dto';

/** The job a stored key belongs to (`models/<job>/…`, `motion/<job>/…`); uploads are not tied to a job id. */
const JOB_OF_KEY = /^(?:models|motion)\/((?:api|v2)_[a-z2-7]{1,60})\//;

/**
 * Serves stored files (local storage) at a stable path: right Content-Type, Cache-Control for an hour
 * (keys never change content, but every file can be deleted), ETag with If-None-Match, and single byte
 * ranges (phones stream models). Every key of a deleted job answers 410, whether or not a file is still
 * there (a showcase thumbnail made on request may land after the delete).
 */
@ApiTags('files')
@Controller('files')
export class FilesController {
  constructor(
    @Inject(STORAGE) private readonly storage: StoragePort,
    private readonly deletions: DataDeletionRepository,
  ) {}

  /** Whether the key belongs to a deleted job (its tombstone). */
  private async deleted(key: string): Promise<boolean> {
    const jobId = JOB_OF_KEY.exec(key)?.[1];
    return jobId !== undefined && (await this.deletions.tombstone({ id: jobId })) !== null;
  }

  /** Fastify answers HEAD from this route too (exposeHeadRoutes): same headers, body dropped. */
  @ApiOperation({ summary: 'Stored models and posters (local storage): Content-Type, ETag, Range' })
  @ApiResponse({ status: 404, type: ErrorResponseDto })
  @ApiResponse({
    status: 410,
    type: ErrorResponseDto,
    description:
      'resource_deleted: the file belongs to a job that was deleted (DELETE /api/v2/jobs/{id}, retention, or its user deleted), whether or not a copy is left in storage.',
  })
  @Get('*')
  async serve(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const key = decodeURIComponent((req.url.split('?')[0] ?? '').replace(/^\/files\//, ''));
    try {
      assertSafeKey(key);
    } catch {
      throw ApiError.notFound('file');
    }
    if (key.endsWith('.meta') || key.endsWith('.tmp')) throw ApiError.notFound('file');
    const [stat, deleted] = await Promise.all([this.storage.stat(key), this.deleted(key)]);
    if (deleted) throw new ApiError(410, 'not_found', 'resource_deleted', 'file: its job has been deleted');
    if (!stat) throw ApiError.notFound('file');
    reply
      .header('content-type', stat.contentType)
      .header('cache-control', STORED_FILE_CACHE_CONTROL)
      .header('etag', stat.etag)
      .header('last-modified', stat.lastModified.toUTCString())
      .header('accept-ranges', 'bytes')
      .header('access-control-allow-origin', '*')
      .header('x-content-type-options', 'nosniff');
    if (etagMatches(req.headers['if-none-match'], stat.etag)) {
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
      reply
        .status(206)
        .header('content-range', `bytes ${start}-${end}/${stat.size}`)
        .header('content-length', String(end - start + 1));
      void reply.send(await this.storage.read(key, { start, end }));
      return;
    }
    reply.status(200).header('content-length', String(stat.size));
    void reply.send(await this.storage.read(key));
  }
}
