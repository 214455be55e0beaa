import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ShowcaseWalls1765328400000 implements MigrationInterface {
  name = 'ShowcaseWalls1765328400000';

  async up(q: QueryRunner): Promise<void> {
    // A saved gallery wall: 2-12 pictures of one showcase hung together (docs/gallery-walls.md). `spec` is the
    // request as validated, `layout` each picture's outer centre and size as arranged; `job_id` the build whose
    // files serve it (a rebuild takes the same row and embed id).
    await q.query(`CREATE TABLE "showcase_walls" (
      "id" SERIAL PRIMARY KEY,
      "public_id" varchar(40) NOT NULL UNIQUE,
      "showcase_id" integer NOT NULL REFERENCES "showcases"("id") ON DELETE CASCADE,
      "name" varchar(80) NOT NULL,
      "spec" jsonb NOT NULL,
      "layout" jsonb NOT NULL,
      "job_id" varchar NOT NULL,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      "updated_at" timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE INDEX "showcase_walls_showcase" ON "showcase_walls" ("showcase_id", "id")`);
    await q.query(`CREATE INDEX "showcase_walls_job" ON "showcase_walls" ("job_id")`);
    // Visitors' walls built on request (files under `base`, no job): recorded so that deleting a picture, its
    // showcase or its user deletes the walls that show it.
    await q.query(`CREATE TABLE "visitor_walls" (
      "base" varchar(200) PRIMARY KEY,
      "showcase_id" integer NOT NULL REFERENCES "showcases"("id") ON DELETE CASCADE,
      "item_ids" jsonb NOT NULL,
      "created_at" timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE INDEX "visitor_walls_showcase" ON "visitor_walls" ("showcase_id")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "visitor_walls"`);
    await q.query(`DROP TABLE "showcase_walls"`);
  }
}
