import type { ItemCatalogue, StoredVariant } from '@app/persistence';
import type { PictureFields } from '@app/plugins';
import { UserError } from '@app/pipeline';
import { parseInput } from '@app/schema';
import { ShowcaseItemBody, UploadItemBody } from './item-body.schema';
import { itemCatalogue, itemSizeInput } from './item-fields.schema';
import { mergeItemPresentation, type PresentationInput } from './presentation-request';
import { mainVariantInput, parseNewVariants } from './variant-requests';

/** One picture to add: its URL and the size and presentation fields its job input carries. */
export interface PictureRequest {
  imageUrl: string;
  presentation: PictureFields;
  /** Label, external id, availability and position (absent for image_urls). */
  catalogue?: Partial<ItemCatalogue>;
  /** The sizes and frames it is sold in (absent: none). */
  variants?: StoredVariant[];
}

/**
 * One entry of `items`: the picture's presentation fields (and `image_url` unless `withUrl` is false: a
 * multipart upload's entries describe its file parts), merged over the showcase's defaults. Errors name
 * `items[i].field`.
 */
export function parseItem(
  v: unknown,
  i: number,
  defaults: PresentationInput,
  { withUrl }: { withUrl: boolean },
): { imageUrl?: string; presentation: PictureFields; catalogue: Partial<ItemCatalogue>; variants?: StoredVariant[] } {
  const prefix = `items[${i}]`;
  const sent = v as Record<string, unknown>;
  let imageUrl: string | undefined;
  if (withUrl) imageUrl = parseInput(ShowcaseItemBody, v, { prefix }).image_url;
  else if (parseInput(UploadItemBody, v, { prefix }) === null) return { presentation: { ...defaults }, catalogue: {} };
  const presentation = itemSizeInput(sent, mergeItemPresentation(sent, defaults, `${prefix}.`));
  const variants = parseNewVariants(sent.variants, presentation, `${prefix}.variants`);
  return {
    imageUrl,
    presentation: variants ? mainVariantInput(presentation, variants) : presentation,
    catalogue: itemCatalogue(sent),
    variants,
  };
}

/** Two items of one request with the same external_id: the second is named. */
export function assertDistinctExternalIds(catalogues: (Partial<ItemCatalogue> | undefined)[]): void {
  const seen = new Map<string, number>();
  catalogues.forEach((c, i) => {
    if (!c?.externalId) return;
    const first = seen.get(c.externalId);
    if (first !== undefined)
      throw new UserError('parameter_invalid', `items[${i}].external_id: ${c.externalId} is also items[${first}]'s`, {
        param: `items[${i}].external_id`,
      });
    seen.set(c.externalId, i);
  });
}
