import { presentationShape, requireLinkForCallToAction } from '@app/plugins';
import { requestSchema, requiredUrl, z } from '@app/schema';
import { checkItemSize, itemLabelShape, itemSizeShape } from './item-fields.schema';
import { variantsList } from './variants.schema';

/** The body of one picture of a showcase (a JSON item, an upload's entry): its presentation, size, label and variants. */

/** How an item's fields meet the showcase's defaults (the create and add requests document it). */
export const ITEM_MERGE =
  "Each item's fields win over the showcase's defaults field by field: an item's frame replaces the default frame whole, and a field sent as null drops that default for the item. Errors name the field as items[i].field.";
/** The fields of an item, as the 400s list them. */
export const ITEM_FIELDS = 'title, subtitle, link_url, call_to_action, price, placement, allow_scaling, finish, frame, mat';

/** One picture of a JSON request: its URL and its own presentation. */
export const ShowcaseItemBody = requestSchema(
  'ShowcaseItemRequestDto',
  z
    .strictObject(
      {
        image_url: requiredUrl({ max: 4096 }).meta({
          description: 'Public http(s) URL of the picture.',
          example: 'https://example.com/dunes.jpg',
        }),
        ...presentationShape,
        ...itemSizeShape,
        ...itemLabelShape,
        variants: variantsList,
      },
      { error: (iss) => (iss.code === 'unrecognized_keys' ? undefined : `must be an object {image_url, ${ITEM_FIELDS}}`) },
    )
    .superRefine(requireLinkForCallToAction)
    .superRefine(checkItemSize),
);

/** One entry of a multipart upload's `items` field: the presentation of the file part at the same position (null: the defaults). */
export const UploadItemBody = z
  .strictObject(
    { ...presentationShape, ...itemSizeShape, ...itemLabelShape, variants: variantsList },
    {
      error: (iss) => {
        if (iss.code !== 'unrecognized_keys') return `must be an object {${ITEM_FIELDS}}`;
        return (iss as { keys: string[] }).keys[0] === 'image_url'
          ? "an upload's items describe its file parts, in order; send URLs as JSON"
          : undefined;
      },
    },
  )
  .superRefine(requireLinkForCallToAction)
  .superRefine(checkItemSize)
  .nullable();
