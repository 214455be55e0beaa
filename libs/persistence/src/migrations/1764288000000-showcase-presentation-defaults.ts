import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ShowcasePresentationDefaults1764288000000 implements MigrationInterface {
  name = 'ShowcasePresentationDefaults1764288000000';

  async up(q: QueryRunner): Promise<void> {
    // A showcase's defaults for its items' presentation (placement, allow_scaling, finish, frame, mat), as
    // sent: merged under each item's own fields into the item's job input. Apart from `branding`, which the
    // public page renders and the API echoes as it was given.
    await q.query(`ALTER TABLE "showcases" ADD COLUMN "presentation_defaults" jsonb NOT NULL DEFAULT '{}'::jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "showcases" DROP COLUMN "presentation_defaults"`);
  }
}
