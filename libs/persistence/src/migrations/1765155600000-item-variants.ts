import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ItemVariants1765155600000 implements MigrationInterface {
  name = 'ItemVariants1765155600000';

  async up(q: QueryRunner): Promise<void> {
    // The sizes and frames an item is sold in (null: the item is one picture, as before). Each entry keeps its
    // own spec, commerce fields and which job's files serve it; a jsonb array, read and written with the item.
    await q.query(`ALTER TABLE "showcase_items" ADD COLUMN "variants" jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "showcase_items" DROP COLUMN "variants"`);
  }
}
