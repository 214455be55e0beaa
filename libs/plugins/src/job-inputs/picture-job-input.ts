import { z } from '@app/schema';
import { checkPictureFields, exactlyOne, int, defineJobInput, nonEmpty, pictureFieldsShape, pictureSourceShape } from './job-input-fields';
import { checkVariants, variantSpecsField } from './variants-job-input';

/** What a picture job's input holds besides its source: the size and presentation, the showcase, the variants. */
const pictureJobShape = {
  ...pictureFieldsShape,
  /** https URL POSTed the job's final payload (v1). */
  callback_url: nonEmpty().nullish(),
  /** The showcase a showcase's job belongs to (its v2 job view names it). */
  showcase_id: int().optional(),
  /** An item with variants: the specs of the variants built beside its main files (the main one's are the job's own fields). */
  variants: variantSpecsField.nullish(),
};

/**
 * A picture job: v1 `convert`, a showcase item added by URL or upload (`v2.picture`, also from a catalogue
 * import). Its source is `image_url` or `upload_key` (a stored upload), exactly one; then its size, fit and
 * presentation as sent, the showcase, a v1 callback and an item's other variants.
 *
 * @example
 * PictureJobInput.parse({ image_url: 'https://cdn.example/dunes.jpg', width_inches: 24, height_inches: 18, frame: 'classic', title: 'Dunes' })
 */
export const PictureJobInput = defineJobInput({ ...pictureSourceShape, ...pictureJobShape }, [
  exactlyOne(['image_url', 'upload_key']),
  checkPictureFields,
  checkVariants,
]);
export type PictureJobInput = z.output<typeof PictureJobInput>;
