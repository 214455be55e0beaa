import { parsePresentation, type PictureFields, presentationShape, requireLinkForCallToAction } from '@app/plugins';
import type { Availability, ItemCatalogue, ItemLabel } from '@app/persistence';
import { parseInput, requestSchema, z } from '@app/schema';
import { PG_INT_MAX } from '../../http/list-query';
import { UploadItemBody } from './item-body.schema';
import { checkSizePairs, itemLabelShape, itemSizeInput, itemSizeShape } from './item-fields.schema';
import { mergeItemPresentation } from './presentation-request';
import { variantsList, variantUpdatesList } from './variants.schema';

/** Editing items in place: the PATCH of one item (merged over what it has) and the items' order. */

const LABEL_FIELDS = ['artist', 'year', 'medium', 'edition', 'description'] as const;
const BANNER_FIELDS = ['title', 'subtitle', 'link_url', 'call_to_action', 'price'] as const;
const SIZE_PAIR_FIELDS = ['width_inches', 'height_inches', 'width_cm', 'height_cm'] as const;
const LOOK_FIELDS = ['frame', 'mat', 'finish', 'placement', 'allow_scaling'] as const;
/** The fields whose change rebuilds an item's files (its size and presentation); the others apply at once. */
export const REBUILD_FIELDS: readonly string[] = [...SIZE_PAIR_FIELDS, 'depth_inches', 'depth_cm', 'fit', ...LOOK_FIELDS];
const EDIT_FIELDS =
  'artist, year, medium, edition, description, external_id, availability, position, title, subtitle, link_url, call_to_action, price, width_inches, height_inches, width_cm, height_cm, depth_inches, depth_cm, fit, frame, mat, finish, placement, allow_scaling, variants, variant_updates';

/**
 * PATCH /api/v2/showcases/{id}/items/{item_id}: every field of a JSON item but image_url. A field left out
 * stays; null clears it (back to the default). Label, banner, availability and position apply at once;
 * size and presentation fields rebuild the item's files from its stored texture.
 */
export const UpdateItemBody = requestSchema(
  'UpdateItemRequestDto',
  z
    .strictObject(
      { ...itemLabelShape, ...presentationShape, ...itemSizeShape, variants: variantsList, variant_updates: variantUpdatesList },
      {
        error: (iss) => {
          if (iss.code !== 'unrecognized_keys') return `must be a JSON object with the item fields to change (${EDIT_FIELDS})`;
          return (iss as { keys: string[] }).keys[0] === 'image_url'
            ? 'the picture of an item cannot be replaced: add it as a new item and delete this one'
            : undefined;
        },
      },
    )
    .superRefine((v, ctx) => void checkSizePairs(v, ctx)),
);

/** PUT /api/v2/showcases/{id}/items/order. */
export const ReorderItemsBody = requestSchema(
  'ReorderItemsRequestDto',
  z.strictObject(
    {
      item_ids: z
        .array(
          z
            .number({ error: () => 'must be an item id (a whole number)' })
            .int({ error: () => 'must be an item id (a whole number)' })
            .min(1, { error: () => 'must be an item id (a whole number)' })
            .max(PG_INT_MAX, { error: () => 'must be an item id (a whole number)' }),
          { error: () => 'must be an array of item ids' },
        )
        .min(1, { error: () => 'must list at least one item id' })
        .max(1000, { error: () => 'at most 1000 item ids' })
        .superRefine((ids, ctx) => {
          const seen = new Set<number>();
          ids.forEach((id, i) => {
            if (seen.has(id)) ctx.addIssue({ code: 'custom', path: [i], message: `item ${id} is listed twice` });
            seen.add(id);
          });
        })
        .meta({
          description:
            "Item ids of the showcase in their new order, each once: all of them or some (those get positions 0..n-1, the others keep theirs). An id that is not one of the showcase's items -> 400 naming item_ids[i].",
          example: [12, 9, 14],
        }),
    },
    { error: (iss) => (iss.code === 'unrecognized_keys' ? undefined : 'the body must be a JSON object {item_ids: [...]}') },
  ),
);

/** An item as an edit is merged over. */
export interface EditableItem {
  label: ItemLabel;
  /** The banner the pages show now: the edited one, else the one its job was made with. */
  banner: Record<string, unknown>;
  /** The job input an edit's size and presentation are merged over: a pending rebuild's, else its files'. */
  latestInput: Record<string, unknown>;
}

/** A validated edit: what the body sets, merged over the item. */
export interface ItemEdit {
  /** The catalogue fields sent (label: the whole merged label). */
  catalogue: Partial<ItemCatalogue>;
  /** When banner fields were sent: the whole banner, merged. */
  banner?: Record<string, unknown>;
  /**
   * When size or presentation fields were sent: the job input fields of the merged item (presentation,
   * banner and size), as a create writes them. Compare with {@link renditionKey}.
   */
  presentation?: PictureFields;
}

const hasOwn = (o: Record<string, unknown>, k: string) => Object.prototype.hasOwnProperty.call(o, k);
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The banner a job input was made with (its title, subtitle, link_url, call_to_action and price, as sent). */
export function bannerOfInput(input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of BANNER_FIELDS) if (input[k] != null) out[k] = input[k];
  return out;
}

/**
 * The size and presentation of a job input as a request would send them: {@link itemSizeInput} undone (a
 * depth it put into the frame comes back as `depth_inches`), so an edit merges over what was asked.
 */
function sentOfInput(input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of ['placement', 'allow_scaling', 'finish', 'mat']) if (input[k] != null) out[k] = input[k];
  const f = input.frame;
  if (isObject(f)) {
    const { depth_inches: depth, ...rest } = f;
    if (depth != null) out.depth_inches = depth;
    // `{style: "none", depth_inches}` is how a depth without a frame is written.
    if (depth == null || !(rest.style === 'none' && Object.keys(rest).length === 1)) out.frame = rest;
  } else if (f != null) out.frame = f;
  if (input.width_inches != null && input.height_inches != null) {
    Object.assign(out, { width_inches: input.width_inches, height_inches: input.height_inches });
    if (input.fit != null) out.fit = input.fit;
  }
  return out;
}

/**
 * Validates an item edit (`prefix` names its fields in errors: `items[3]` or `items[3].` -> `items[3].frame`) and
 * merges it over the item: a field left out stays, null clears it (back to the API's default, not the
 * showcase's). The merged size and presentation are checked as a create checks an item (a mat needs a
 * frame, a call to action a link, `fit` a size), so an edit cannot make an item a create would refuse.
 */
export function parseItemEdit(patch: unknown, item: EditableItem, prefix = ''): ItemEdit {
  const b = parseInput(UpdateItemBody, patch, { prefix }) as Record<string, unknown>;
  const sent = patch as Record<string, unknown>;
  const has = (k: string) => hasOwn(sent, k);
  const edit: ItemEdit = { catalogue: {} };

  if (LABEL_FIELDS.some(has)) {
    const label: ItemLabel = { ...item.label };
    for (const k of LABEL_FIELDS) {
      if (!has(k)) continue;
      if (typeof b[k] === 'string' && b[k] !== '') label[k] = b[k];
      else delete label[k];
    }
    edit.catalogue.label = label;
  }
  if (has('external_id')) edit.catalogue.externalId = (b.external_id as string | null | undefined) ?? null;
  if (has('availability')) edit.catalogue.availability = (b.availability as Availability | null | undefined) ?? 'available';
  if (has('position')) edit.catalogue.position = (b.position as number | null | undefined) ?? null;

  let banner = item.banner;
  if (BANNER_FIELDS.some(has)) {
    banner = { ...item.banner };
    for (const k of BANNER_FIELDS) {
      if (!has(k)) continue;
      if (b[k] != null) banner[k] = b[k];
      else delete banner[k];
    }
    parseInput(z.looseObject({}).superRefine(requireLinkForCallToAction), banner, { prefix });
    edit.banner = banner;
  }

  if (REBUILD_FIELDS.some(has)) {
    const merged = sentOfInput(item.latestInput);
    const take = (k: string) => (sent[k] == null ? delete merged[k] : (merged[k] = sent[k]));
    for (const k of LOOK_FIELDS) if (has(k)) take(k);
    // A frame sent with its own depth replaces the depth the item had.
    if (isObject(sent.frame) && sent.frame.depth_inches != null && !has('depth_inches') && !has('depth_cm')) delete merged.depth_inches;
    if (SIZE_PAIR_FIELDS.some(has)) {
      for (const k of SIZE_PAIR_FIELDS) delete merged[k];
      for (const k of SIZE_PAIR_FIELDS) if (sent[k] != null) merged[k] = sent[k];
      // No size left: nothing to fit to.
      if (merged.width_inches == null && merged.width_cm == null) delete merged.fit;
    }
    if (has('depth_inches') || has('depth_cm')) {
      delete merged.depth_inches;
      delete merged.depth_cm;
      for (const k of ['depth_inches', 'depth_cm']) if (sent[k] != null) merged[k] = sent[k];
    }
    if (has('fit')) take('fit');
    Object.assign(merged, banner);
    parseInput(UploadItemBody, merged, { prefix });
    edit.presentation = itemSizeInput(merged, mergeItemPresentation(merged, {}, prefix && !prefix.endsWith('.') ? `${prefix}.` : prefix));
  }
  return edit;
}

/** JSON with sorted keys: equal values give equal text. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isObject(v))
    return `{${Object.keys(v)
      .filter((k) => v[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
      .join(',')}}`;
  return JSON.stringify(v ?? null);
}

/** Whether two JSON values are equal, whatever their keys' order. */
export const sameJson = (a: unknown, b: unknown): boolean => canonical(a) === canonical(b);

/**
 * What an item's files are made of, from a job input: the resolved presentation (placement, scaling,
 * finish, frame and mat with their defaults, so `frame: "none"` and no frame are the same) and the size.
 * The banner is not in the files. Two inputs with the same key build the same files.
 */
export function renditionKey(input: Record<string, unknown>): string {
  const { banner: _banner, ...look } = parsePresentation(input);
  const size =
    input.width_inches != null && input.height_inches != null
      ? [Number(input.width_inches), Number(input.height_inches), input.fit ?? 'crop']
      : null;
  return canonical({ ...look, size });
}
