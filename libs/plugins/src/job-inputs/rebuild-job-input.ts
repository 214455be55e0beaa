import { z } from '@app/schema';
import { checkPictureFields, expected, int, defineJobInput, nonEmpty, pictureFieldsShape, str } from './job-input-fields';

/** The key of a rebuild's input naming the item it rebuilds and the job whose files it replaces. */
export const REBUILD_INPUT = 'rebuild';

/**
 * A showcase item's rebuild (a `v2.picture` job written by the API's item edits): new size or presentation
 * from the item's stored texture. `upload_key` names the GLB of the item's files (read back by the fetch
 * stage, so the source is neither fetched nor decoded again); `rebuild` the item and the job it replaces
 * when it completes (the ItemRebuilds listener switches them).
 *
 * @example
 * RebuildJobInput.parse({ upload_key: 'models/v2_abc/model.glb', width_inches: 30, height_inches: 40, fit: 'crop', frame: 'thin', showcase_id: 7, rebuild: { item_id: 12, from_job: 'v2_abc' } })
 */
export const RebuildJobInput = defineJobInput(
  {
    ...pictureFieldsShape,
    upload_key: nonEmpty(),
    showcase_id: int().optional(),
    [REBUILD_INPUT]: z.looseObject({ item_id: int(), from_job: str() }, { error: expected('must be an object {item_id, from_job}') }),
  },
  [checkPictureFields],
);
export type RebuildJobInput = z.output<typeof RebuildJobInput>;
