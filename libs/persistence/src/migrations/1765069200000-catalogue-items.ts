import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The catalogue: a showcase item's label (artist, year, medium, edition, description), its id in the
 * gallery's own catalogue (unique per showcase, how a re-import finds it), availability, order, a banner
 * edited after conversion, and the rebuild that will replace its files; a showcase's units and locale;
 * bulk imports and their per-row report.
 */
export class CatalogueItems1765069200000 implements MigrationInterface {
  name = 'CatalogueItems1765069200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "showcases" ADD COLUMN "units" varchar(2) NOT NULL DEFAULT 'in'`);
    await q.query(`ALTER TABLE "showcases" ADD COLUMN "locale" varchar(8) NOT NULL DEFAULT 'en'`);
    await q.query(`ALTER TABLE "showcases" ADD CONSTRAINT "showcases_units_check" CHECK ("units" IN ('in', 'cm'))`);
    await q.query(`ALTER TABLE "showcase_items" ADD COLUMN "label" jsonb NOT NULL DEFAULT '{}'::jsonb`);
    await q.query(`ALTER TABLE "showcase_items" ADD COLUMN "external_id" varchar(100)`);
    await q.query(`ALTER TABLE "showcase_items" ADD COLUMN "availability" varchar(16) NOT NULL DEFAULT 'available'`);
    await q.query(
      `ALTER TABLE "showcase_items" ADD CONSTRAINT "showcase_items_availability_check" CHECK ("availability" IN ('available', 'reserved', 'sold', 'not_for_sale'))`,
    );
    await q.query(`ALTER TABLE "showcase_items" ADD COLUMN "position" integer`);
    // Set by an edit after conversion: wins over the banner in the job's result (no rebuild: the banner is not in the files).
    await q.query(`ALTER TABLE "showcase_items" ADD COLUMN "banner" jsonb`);
    // A rebuild in progress: the item keeps serving job_id's files until this job completes, then switches.
    await q.query(`ALTER TABLE "showcase_items" ADD COLUMN "pending_job_id" varchar(64) REFERENCES "jobs" ("id") ON DELETE SET NULL`);
    await q.query(
      `CREATE UNIQUE INDEX "showcase_items_external_id_idx" ON "showcase_items" ("showcase_id", "external_id") WHERE "external_id" IS NOT NULL`,
    );
    await q.query(`
      CREATE TABLE "catalogue_imports" (
        "id" varchar(64) PRIMARY KEY,
        "showcase_id" integer NOT NULL REFERENCES "showcases" ("id") ON DELETE CASCADE,
        "owner_id" varchar(64) NOT NULL REFERENCES "users" ("id") ON DELETE CASCADE,
        "status" varchar(16) NOT NULL DEFAULT 'running',
        "counts" jsonb NOT NULL DEFAULT '{}'::jsonb,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "finished_at" timestamptz,
        CONSTRAINT "catalogue_imports_status_check" CHECK ("status" IN ('running', 'completed'))
      )`);
    await q.query(`CREATE INDEX "catalogue_imports_showcase_idx" ON "catalogue_imports" ("showcase_id", "created_at")`);
    await q.query(`
      CREATE TABLE "catalogue_import_rows" (
        "import_id" varchar(64) NOT NULL REFERENCES "catalogue_imports" ("id") ON DELETE CASCADE,
        "row" integer NOT NULL,
        "field" varchar(100),
        "message" text NOT NULL,
        "item_id" integer,
        "job_id" varchar(64)
      )`);
    await q.query(`CREATE INDEX "catalogue_import_rows_import_idx" ON "catalogue_import_rows" ("import_id", "row")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "catalogue_import_rows"`);
    await q.query(`DROP TABLE "catalogue_imports"`);
    await q.query(`DROP INDEX "showcase_items_external_id_idx"`);
    for (const c of ['pending_job_id', 'banner', 'position', 'availability', 'external_id', 'label'])
      await q.query(`ALTER TABLE "showcase_items" DROP COLUMN "${c}"`);
    await q.query(`ALTER TABLE "showcases" DROP COLUMN "locale"`);
    await q.query(`ALTER TABLE "showcases" DROP COLUMN "units"`);
  }
}
