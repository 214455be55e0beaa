import { presentationDefaultsShape, presentationShape, requireLinkForCallToAction } from '@app/plugins';
import { requestSchema, z } from '@app/schema';
import { AVAILABILITIES, itemSizeShape } from './item-fields.schema';

/**
 * Variants: the sizes and frames one picture is sold in ("A3 unframed", "50 x 70 cm oak"). Each is a size and
 * look over the item's, with its own price, link, SKU and availability. The picture is fetched, decoded and
 * charged once per item; each variant's files are built from the item's one stored texture.
 */

export const VARIANT_LIMITS = { perItem: 24, name: 80, sku: 64 } as const;

export const VARIANT_LOOK_FIELDS = ['frame', 'mat', 'finish', 'placement', 'allow_scaling'] as const;
/** The fields of a variant that its files are built from. */
export const VARIANT_BUILD_FIELDS: readonly string[] = [
  ...VARIANT_LOOK_FIELDS,
  ...['width_inches', 'height_inches', 'width_cm', 'height_cm', 'depth_inches', 'depth_cm', 'fit'],
];

const skuField = z
  .string({ error: () => 'must be a string' })
  .transform((v) => v.trim())
  .refine((t) => t.length > 0, { error: () => 'must not be empty' })
  .refine((t) => t.length <= VARIANT_LIMITS.sku, { error: () => `at most ${VARIANT_LIMITS.sku} characters` })
  .refine((t) => !/[\p{Cc}\s]/u.test(t), { error: () => 'must not contain spaces or control characters' })
  .meta({
    maxLength: VARIANT_LIMITS.sku,
    description: "The shop's SKU: unique in the item; `?variant=<sku>` selects it on the pages.",
    example: 'DUNES-50x70-OAK',
  });

const variantShape = {
  sku: skuField,
  name: z
    .string({ error: () => 'must be a string' })
    .transform((v) => v.trim())
    .refine((t) => t.length > 0, { error: () => 'must not be empty' })
    .refine((t) => [...t].length <= VARIANT_LIMITS.name, { error: () => `at most ${VARIANT_LIMITS.name} characters` })
    .refine((t) => !/\p{Cc}/u.test(t), { error: () => 'must not contain control characters' })
    .nullish()
    .meta({
      maxLength: VARIANT_LIMITS.name,
      description: 'What the page\'s selector shows (default: the size and frame, e.g. "50 × 70 cm, oak").',
      example: '50 × 70 cm, oak frame',
    }),
  default: z
    .boolean({ error: () => 'must be true or false' })
    .nullish()
    .meta({ description: 'The variant shown first (at most one; default: the first).', example: false }),
  availability: z
    .enum(AVAILABILITIES, { error: () => `must be one of ${AVAILABILITIES.join(', ')}` })
    .nullish()
    .meta({ default: 'available', description: 'sold: the selector shows it as sold and the page has no buy link for it.' }),
  price: presentationShape.price,
  link_url: presentationShape.link_url,
  call_to_action: presentationShape.call_to_action,
  ...presentationDefaultsShape,
  ...itemSizeShape,
};

/** One variant of a create or replace: its SKU, name, commerce fields, and the size and look it differs in from the item. */
export const ItemVariantBody = requestSchema(
  'ItemVariantRequestDto',
  z
    .strictObject(variantShape, {
      error: (iss) =>
        iss.code === 'unrecognized_keys'
          ? undefined
          : 'must be an object {sku, name, width_cm, height_cm, frame, mat, price, link_url, ...}',
    })
    .superRefine(requireLinkForCallToAction),
);

/** One entry of `variant_updates`: a variant named by its SKU and the fields to change (null clears one). */
export const VariantUpdateBody = requestSchema(
  'ItemVariantUpdateRequestDto',
  z
    .strictObject(variantShape, {
      error: (iss) => (iss.code === 'unrecognized_keys' ? undefined : 'must be an object {sku, ...fields to change}'),
    })
    .superRefine(requireLinkForCallToAction),
);

/** `variants` of an item: up to 24, SKUs unique, at most one default. */
export const variantsField = z
  .array(z.unknown(), { error: () => 'must be an array of variants' })
  .max(VARIANT_LIMITS.perItem, { error: () => `at most ${VARIANT_LIMITS.perItem} variants per item` })
  .nullish()
  .meta({
    description: `The sizes and frames the picture is sold in (at most ${VARIANT_LIMITS.perItem}): each {sku, name, size, frame, mat, price, link_url, availability, default}, over the item's own fields. The picture is converted and charged once; each variant gets its own GLB, USDZ and poster.`,
  });

/** `variant_updates` of a PATCH: edits of some variants, by SKU. */
export const variantUpdatesField = z
  .array(z.unknown(), { error: () => 'must be an array of {sku, ...fields}' })
  .max(VARIANT_LIMITS.perItem, { error: () => `at most ${VARIANT_LIMITS.perItem} entries` })
  .nullish()
  .meta({
    description: 'Changes to some variants, each named by its sku; the others stay. A size or look change rebuilds that variant only.',
  });

/** `variants` as an item body declares it (each entry checked, errors naming `variants[i].field`). */
export const variantsList = z
  .array(ItemVariantBody, { error: () => 'must be an array of variants' })
  .max(VARIANT_LIMITS.perItem, { error: () => `at most ${VARIANT_LIMITS.perItem} variants per item` })
  .nullish()
  .meta(variantsField.meta() ?? {});

/** `variant_updates` as the PATCH body declares it. */
export const variantUpdatesList = z
  .array(VariantUpdateBody, { error: () => 'must be an array of {sku, ...fields}' })
  .max(VARIANT_LIMITS.perItem, { error: () => `at most ${VARIANT_LIMITS.perItem} entries` })
  .nullish()
  .meta(variantUpdatesField.meta() ?? {});
