import { z } from '@app/schema';
import { MAX_VARIANTS, parseVariantSpecs } from '../variants/variant-specs';
import { expected, int, defineJobInput, nonEmpty, refineWith, str, VariantSpecInput } from './job-input-fields';

/** `variants` of a job input: the specs the job builds from its one texture, at most {@link MAX_VARIANTS}. */
export const variantSpecsField = z
  .array(VariantSpecInput, { error: expected('must be an array') })
  .max(MAX_VARIANTS, { error: () => `at most ${MAX_VARIANTS} variants` });

/** The `variants` of an input checked as the variants stage reads them ({@link parseVariantSpecs}). */
export function checkVariants(v: Record<string, unknown>, ctx: z.RefinementCtx): void {
  if (v.variants != null) refineWith(ctx, () => parseVariantSpecs({ variants: v.variants }));
}

/**
 * A variant build (`showcase-variants` pipeline, a `v2.picture` job): some variants of a showcase item rebuilt
 * from its stored texture, written by the API's item edits. `upload_key` names the item's GLB, whose texture the
 * fetch stage reads back; `variants` the specs to build; `variant_build` the item and the variants waiting
 * for it (what the listener settles).
 *
 * @example
 * VariantsJobInput.parse({
 *   upload_key: 'models/v2_abc/model.glb',
 *   variants: [{ id: 'var_a3unframed', width_inches: 11.69, height_inches: 16.54, fit: 'crop' }],
 *   showcase_id: 7,
 *   variant_build: { item_id: 12, variant_ids: ['var_a3unframed'] },
 * })
 */
export const VariantsJobInput = defineJobInput(
  {
    upload_key: nonEmpty(),
    variants: variantSpecsField,
    showcase_id: int().optional(),
    // Persistence's VARIANT_BUILD_INPUT: the repository adds it when it writes the job with the variants.
    variant_build: z.looseObject(
      { item_id: int(), variant_ids: z.array(str(), { error: expected('must be an array of variant ids') }) },
      { error: expected('must be an object {item_id, variant_ids}') },
    ),
  },
  [checkVariants],
);
export type VariantsJobInput = z.output<typeof VariantsJobInput>;
