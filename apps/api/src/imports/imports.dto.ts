import { ApiProperty } from '@nestjs/swagger';

/** Response shapes of the catalogue import routes (the requests: imports.schema.ts). */

class ImportPreviewCountsDto {
  @ApiProperty({ description: 'Data rows (every count is of rows: a group of variant rows counts each of its rows).' }) rows!: number;
  @ApiProperty({ description: 'Rows that are not a valid item (listed in rows).' }) invalid!: number;
  @ApiProperty({ description: 'Rows that create a new item (its variant rows all count; price.pictures counts the items).' })
  created!: number;
  @ApiProperty({ description: 'Rows whose external_id is an item of the showcase: that item would be updated.' }) updated!: number;
  @ApiProperty({ description: 'Rows that match their item already (nothing would change; a variant row: its variant).' })
  unchanged!: number;
  @ApiProperty({
    description: "New items that would be skipped at today's balance and the showcase's room (insufficient_credits, too_many_items).",
  })
  skipped!: number;
}

class ImportPriceDto {
  @ApiProperty({ description: 'Credits the new pictures would cost (0 for the owner key).', example: 1900 }) credits!: number;
  @ApiProperty({ description: 'Pictures charged: the new items (a group of variant rows is one picture).', example: 950 })
  pictures!: number;
  @ApiProperty({ description: 'Credits per picture for this key.', example: 2 }) per_picture!: number;
  @ApiProperty({ type: Number, nullable: true, description: "The account's balance now (null for the owner key, which is not billed)." })
  balance!: number | null;
}

class ImportPreviewRowDto {
  @ApiProperty({ description: 'The data row, from 1 (a CSV: the first row after the header; blank rows not counted).' }) row!: number;
  @ApiProperty({ type: String, nullable: true, description: 'The field (CSV: the column) at fault; null for the row as a whole.' })
  field!: string | null;
  @ApiProperty() message!: string;
}

/** POST /api/v2/showcases/{id}/imports?dry_run=true. */
export class ImportPreviewDto {
  @ApiProperty({ enum: ['import_preview'] }) object!: string;
  @ApiProperty() showcase_id!: number;
  @ApiProperty({ type: ImportPreviewCountsDto }) counts!: ImportPreviewCountsDto;
  @ApiProperty({ type: ImportPriceDto }) price!: ImportPriceDto;
  @ApiProperty({ type: [ImportPreviewRowDto], description: 'The invalid rows, in order.' }) rows!: ImportPreviewRowDto[];
}

class ImportCountsDto extends ImportPreviewCountsDto {
  @ApiProperty({ description: 'Rows dealt with so far (all of them once status is completed).' }) processed!: number;
  @ApiProperty({
    description: "Rows whose job (a new picture, a rebuild) is still queued or converting; a group's rows share their item's job.",
  })
  queued!: number;
  @ApiProperty({ description: 'Rows whose job completed.' }) completed!: number;
  @ApiProperty({ description: 'Rows whose job failed (listed with the error; a failed new picture is refunded).' })
  failed!: number;
}

class ImportRowDto extends ImportPreviewRowDto {
  @ApiProperty({ enum: ['invalid', 'created', 'updated', 'unchanged', 'skipped', 'failed'] }) status!: string;
  @ApiProperty({ type: Number, nullable: true, description: 'The item the row created or updated.' }) item_id!: number | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      "The job converting it: a new picture (every row of a group of variant rows: the item's), or a rebuild (a variant row: the build of its variant, when it is rebuilt).",
  })
  job_id!: string | null;
}

/** An import: POST /api/v2/showcases/{id}/imports (202) and GET /api/v2/imports/{id}. */
export class ImportDto {
  @ApiProperty({ example: 'imp_3kq7xa2mzp4rj5tb6wn8yc2d' }) id!: string;
  @ApiProperty({ enum: ['import'] }) object!: string;
  @ApiProperty() showcase_id!: number;
  @ApiProperty({
    enum: ['running', 'completed'],
    description: 'completed: every row was dealt with (its pictures may still be converting: counts.queued).',
  })
  status!: string;
  @ApiProperty({ type: ImportCountsDto }) counts!: ImportCountsDto;
  @ApiProperty({
    description:
      'Charged for the new pictures so far, net of refunds: a picture whose conversion failed is refunded and no longer counted.',
  })
  credits_charged!: number;
  @ApiProperty() created_at!: string;
  @ApiProperty({ type: String, nullable: true }) finished_at!: string | null;
  @ApiProperty({
    type: [ImportRowDto],
    description:
      'In row order: the invalid, skipped (message: insufficient_credits, too_many_items, interrupted, item_deleted) and failed rows; with ?rows=all every row dealt with.',
  })
  rows!: ImportRowDto[];
}
