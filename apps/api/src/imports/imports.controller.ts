import { Controller, Get, HttpCode, Param, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiBody, ApiConsumes, ApiExtraModels, ApiOperation, ApiResponse, ApiSecurity, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { schemaRef } from '@app/schema';
import { ApiKeyGuard, type AuthedRequest } from '../http/api-key.guard';
import { AllowScope } from '../http/api-keys/key-scope';
import { QueryParams } from '../http/request-schema';
import { ImportDto, ImportPreviewDto } from './imports.dto';
import { IMPORT_MAX_ROWS, ImportJsonBody, ImportMultipart, ImportQuery, ImportReportQuery } from './imports.schema';
import { ImportsService } from './imports.service';

const CSV_BODY =
  `A catalogue CSV (RFC 4180; UTF-8, a byte-order mark is fine; "," ";" or tab between cells, a ";" file may write decimal commas): a header row naming the item fields ` +
  '(image_url, title, artist, year, medium, edition, description, external_id, availability, position, width_cm, height_cm, width_inches, height_inches, depth_cm, depth_inches, fit, ' +
  'subtitle, price, link_url, call_to_action, placement, allow_scaling, finish, frame (a style), frame_color, frame_width_inches, mat_width_inches, mat_color, ' +
  'sku, variant_name, variant_default; "Image URL" reads as image_url), ' +
  `then up to ${IMPORT_MAX_ROWS} rows. An empty cell is a field not given. Rows with a sku are variants: consecutive rows with the same external_id make one item ` +
  '(its picture, title and label from the first row; price, link, availability, size and frame per row; at most 24). Streamed, never held whole.';

/** Catalogue imports: a gallery's catalogue (thousands of works) into a showcase in one request. */
@ApiTags('v2')
@ApiSecurity('api-key')
@ApiExtraModels(ImportDto)
@Controller('api/v2')
@UseGuards(ApiKeyGuard)
export class ImportsController {
  constructor(private readonly imports: ImportsService) {}

  @Post('showcases/:id/imports')
  @HttpCode(202)
  @ApiConsumes('application/json', 'text/csv', 'multipart/form-data')
  @ApiBody({
    description:
      `application/json (CatalogueImportJsonDto): {items: [...]}, up to ${IMPORT_MAX_ROWS} items as in POST /api/v2/showcases. text/csv: ${CSV_BODY} ` +
      'multipart/form-data (CatalogueImportMultipartDto): picture file parts named "files" and a part named "csv" whose "file" column names them by filename.',
    schema: { oneOf: [schemaRef(ImportJsonBody), { type: 'string', description: CSV_BODY }, schemaRef(ImportMultipart)] },
  })
  @QueryParams(ImportQuery)
  @ApiOperation({
    summary: 'Import a catalogue into a showcase (CSV, JSON or files + CSV)',
    description:
      'Each row is checked as a new item (the schema of POST /api/v2/showcases items, merged over the showcase defaults); a row whose external_id is an item of the showcase updates that item ' +
      '(PATCH semantics: the fields given change). Rows with a sku are the variants of the item with their external_id, one row each: one item, one picture, one charge; ' +
      're-imported, they replace its variants by SKU and rebuild only those whose size or frame changed. Invalid rows are reported, not fatal. The rows are then processed in the background: new pictures are charged as usual (2.0 credits each ' +
      'for per-user keys), 20 per charge, all or nothing; when the credits or the showcase cap (SHOWCASE_MAX_ITEMS) run out, the remaining new rows are skipped (insufficient_credits, ' +
      'too_many_items). ?dry_run=true answers what would happen and cost, storing and charging nothing. Poll GET /api/v2/imports/{id}.',
  })
  @ApiResponse({ status: 200, description: 'dry_run=true: what the import would do and cost.', type: ImportPreviewDto })
  @ApiResponse({ status: 202, description: 'The import runs; poll GET /api/v2/imports/{id}.', type: ImportDto })
  @ApiResponse({
    status: 400,
    description:
      "The body as a whole: not {items: [...]}, no rows, over 5,000 rows (a JSON item's variants count one row each: too_many_rows, naming the item), a CSV that cannot be read (naming its row and line), an unknown column. Nothing stored or charged.",
  })
  async start(@Req() req: AuthedRequest, @Param('id') id: string, @Query() q: unknown, @Res() reply: FastifyReply): Promise<void> {
    const out = await this.imports.start(req.principal, id, req, q);
    await reply.status(out.status).header('content-type', 'application/json; charset=utf-8').send(out.body);
  }

  @Get('imports/:id')
  @AllowScope('read_only')
  @QueryParams(ImportReportQuery)
  @ApiOperation({
    summary: 'An import: status, counts and the rows that need attention (JSON or CSV)',
    description:
      "counts.queued/completed/failed are the states of the import's jobs now. ?format=csv (or Accept: text/csv) gives the rows as a CSV file (row, status, field, message, item_id, job_id) " +
      "with cells that a spreadsheet would run as formulas made safe. 404 for another account's import.",
  })
  @ApiResponse({
    status: 200,
    description:
      'The import (JSON), or its rows as CSV (?format=csv or Accept: text/csv; a UTF-8 byte-order mark first, for spreadsheets).',
    content: {
      'application/json': { schema: { $ref: getSchemaPath(ImportDto) } },
      'text/csv': {
        schema: { type: 'string', example: 'row,status,field,message,item_id,job_id\r\n20,invalid,width_cm,must be a number,,\r\n' },
      },
    },
  })
  get(@Req() req: AuthedRequest, @Param('id') id: string, @Query() q: unknown) {
    // Read here rather than with @Headers: the document would list Accept as a required parameter.
    return this.imports.get(req.principal, id, q, req.headers.accept);
  }
}
