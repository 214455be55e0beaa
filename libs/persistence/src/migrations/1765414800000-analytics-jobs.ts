import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AnalyticsJobs1765414800000 implements MigrationInterface {
  name = 'AnalyticsJobs1765414800000';

  async up(q: QueryRunner): Promise<void> {
    // The embed pages of conversions outside a showcase (v1, animated AR) count per job (docs/analytics.md,
    // "v1 embeds"): their rows have showcase 0, item 0 and the job's id; a showcase's rows keep ''. The job
    // joins the unique keys, or two jobs' counts of a day would fold into one row. (An API process of the
    // previous release flushes against the old key and fails until it is replaced; its events wait in the
    // buffer and the new processes count them, as after any failed flush.)
    await q.query(`ALTER TABLE "analytics_daily" ADD COLUMN "job_id" varchar(64) NOT NULL DEFAULT ''`);
    await q.query(`DROP INDEX "analytics_daily_key"`);
    await q.query(
      `CREATE UNIQUE INDEX "analytics_daily_key" ON "analytics_daily" ("day", "showcase_id", "item_id", "job_id", "surface", "variant", "event", "platform", "referrer_host")`,
    );
    // GET /api/v2/analytics?job_id=…: one job's days (showcase rows, job '', stay out of this index).
    await q.query(`CREATE INDEX "analytics_daily_job" ON "analytics_daily" ("job_id", "day") WHERE "job_id" <> ''`);
    await q.query(`ALTER TABLE "analytics_visitors" ADD COLUMN "job_id" varchar(64) NOT NULL DEFAULT ''`);
    await q.query(`ALTER TABLE "analytics_visitors" DROP CONSTRAINT "analytics_visitors_pkey"`);
    await q.query(`ALTER TABLE "analytics_visitors" ADD PRIMARY KEY ("day", "showcase_id", "item_id", "job_id")`);
  }

  async down(q: QueryRunner): Promise<void> {
    // Folds the jobs' rows away first: the old keys cannot tell two jobs apart.
    await q.query(`DELETE FROM "analytics_visitors" WHERE "job_id" <> ''`);
    await q.query(`ALTER TABLE "analytics_visitors" DROP CONSTRAINT "analytics_visitors_pkey"`);
    await q.query(`ALTER TABLE "analytics_visitors" DROP COLUMN "job_id"`);
    await q.query(`ALTER TABLE "analytics_visitors" ADD PRIMARY KEY ("day", "showcase_id", "item_id")`);
    await q.query(`DELETE FROM "analytics_daily" WHERE "job_id" <> ''`);
    await q.query(`DROP INDEX "analytics_daily_job"`);
    await q.query(`DROP INDEX "analytics_daily_key"`);
    await q.query(`ALTER TABLE "analytics_daily" DROP COLUMN "job_id"`);
    await q.query(
      `CREATE UNIQUE INDEX "analytics_daily_key" ON "analytics_daily" ("day", "showcase_id", "item_id", "surface", "variant", "event", "platform", "referrer_host")`,
    );
  }
}
