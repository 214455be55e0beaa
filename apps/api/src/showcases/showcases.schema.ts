import {
  parsePresentation,
  PRESENTATION_FIELDS,
  presentationDefaultsShape,
  presentationShape,
  requireLinkForCallToAction,
} from '@app/plugins';
import type { Availability, ItemCatalogue, ItemLabel, StoredVariant } from '@app/persistence';
import { checkItemSize, checkSizePairs, itemCatalogue, itemLabelShape, itemSizeInput, itemSizeShape } from './item-fields.schema';
import { variantsList, variantUpdatesList } from './variants.schema';
import { mainVariantInput, parseNewVariants } from './variant-specs';

export { AVAILABILITIES, checkItemSize, itemCatalogue, itemLabelShape, itemSizeInput, itemSizeShape } from './item-fields.schema';
import { bool, httpUrl, parseInput, requestSchema, requiredUrl, text, z } from '@app/schema';
import { UserError } from '@app/pipeline';
import { cursorQuery, limitQuery, PG_INT_MAX } from '../http/list-query';
import {
  acceptPresentation,
  mergeItemPresentation,
  type PresentationInput,
  SHOWCASE_DEFAULT_FIELDS,
} from '../presentation/presentation-request';

/** Request schemas of the showcase routes: each validates, words its 400s and is the OpenAPI schema. */

/**
 * Layouts of the public showcase page. Unknown values -> 400. `dark` (the branded page on a dark
 * background) predates the others and stays for the clients that use it.
 */
export const LAYOUTS = ['branded', 'grid', 'salon', 'minimal', 'dark'] as const;
export type Layout = (typeof LAYOUTS)[number];

/** Length caps, documented in docs/api.md. */
export const SHOWCASE_LIMITS = {
  description: 5000,
  tagline: 200,
  links: 20,
  linkTitle: 100,
  url: 2048,
  imageUrlsPerRequest: 20,
} as const;

const PER_REQUEST = SHOWCASE_LIMITS.imageUrlsPerRequest;
const ITEM_MERGE =
  "Each item's fields win over the showcase's defaults field by field: an item's frame replaces the default frame whole, and a field sent as null drops that default for the item. Errors name the field as items[i].field.";
const ITEM_FIELDS = 'title, subtitle, link_url, call_to_action, price, placement, allow_scaling, finish, frame, mat';
/** Picture fields that are not showcase-wide defaults: sent at the top level, they get a pointer to `items`. */
const PICTURE_ONLY = new Set<string>(PRESENTATION_FIELDS.filter((f) => !SHOWCASE_DEFAULT_FIELDS.includes(f)));

/** GET /api/v2/showcases. */
export const ShowcaseListQuery = z.object({
  cursor: cursorQuery(/^([1-9][0-9]{0,9})$/, ([id]) => Number(id) <= PG_INT_MAX),
  limit: limitQuery(100, 20),
});

/** The locales the public pages speak. */
export const PAGE_LOCALES = ['en', 'de', 'fr', 'es', 'it', 'nl', 'ja'] as const;

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

const imageUrls = z
  .array(httpUrl({ max: 4096 }), { error: () => 'must be an array of URLs' })
  .max(PER_REQUEST, { error: () => `at most ${PER_REQUEST} per request` })
  .nullish();
const items = z.array(z.unknown(), { error: () => 'must be an array of objects, one per picture' }).nullish();

const HEX = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
const hexColor = z
  .string({ error: () => 'must be a hex colour like #0a66ff' })
  .regex(HEX, { error: () => 'must be a hex colour like #0a66ff' })
  .transform((c) => c.toLowerCase());

const CustomLink = requestSchema(
  'CustomLinkRequestDto',
  z.strictObject(
    {
      title: text(SHOWCASE_LIMITS.linkTitle)
        .refine((t) => t.trim() !== '', { error: () => 'required', params: { code: 'parameter_missing' } })
        .describe('Link text.'),
      url: httpUrl({ max: SHOWCASE_LIMITS.url }).describe('http(s) URL'),
    },
    { error: (iss) => (iss.code === 'unrecognized_keys' ? undefined : 'must be an object {title, url}') },
  ),
);

const Branding = requestSchema(
  'BrandingRequestDto',
  z.strictObject(
    {
      tagline: text(SHOWCASE_LIMITS.tagline).nullish(),
      primary_color: hexColor.nullish().meta({ description: 'Hex colour, #rgb or #rrggbb.', example: '#0a66ff' }),
      secondary_color: hexColor.nullish().meta({ description: 'Hex colour, #rgb or #rrggbb.', example: '#222222' }),
    },
    { error: (iss) => (iss.code === 'unrecognized_keys' ? undefined : 'must be an object {tagline, primary_color, secondary_color}') },
  ),
);

/** A showcase's own fields (page, branding) and its items' presentation defaults. */
const showcaseFields = {
  logo_url: httpUrl().nullish().describe('Logo image, http(s) URL.'),
  layout_choice: z
    .enum(LAYOUTS, { error: () => `must be one of ${LAYOUTS.join(', ')}` })
    .nullish()
    .meta({
      default: 'branded',
      description:
        'Public page layout: branded (header band in the primary colour, cards), grid (image-first, no band), salon (a gallery wall: pictures at their true relative sizes on a common centre line), minimal (one large picture at a time), dark (branded on a dark background). Anything else -> 400 listing these.',
    }),
  description: text(SHOWCASE_LIMITS.description).nullish(),
  custom_links: z
    .array(CustomLink, { error: () => 'must be an array of {title, url}' })
    .max(SHOWCASE_LIMITS.links, { error: () => `at most ${SHOWCASE_LIMITS.links}` })
    .nullish(),
  branding: Branding.nullish(),
  indexable: bool().nullish().meta({
    default: false,
    description: 'Whether search engines may index the public page (false: noindex). Embed pages are never indexable.',
  }),
  analytics: bool().nullish().meta({
    default: true,
    description:
      'Whether the public pages count views, AR launches and taps (docs/analytics.md: no cookies, no IP stored). false: they send no beacons and none is counted.',
  }),
  units: z
    .enum(['in', 'cm'], { error: () => 'must be one of in, cm' })
    .nullish()
    .meta({ default: 'in', description: 'Which unit the pages show first ("76.2 × 101.6 cm (30 × 40 in)").' }),
  locale: z
    .enum(PAGE_LOCALES, { error: () => `must be one of ${PAGE_LOCALES.join(', ')}` })
    .nullish()
    .meta({ default: 'en', description: "The public pages' language; a visitor's ?lang= overrides it." }),
  ...presentationDefaultsShape,
};

/** A top-level picture field gets a pointer to where it belongs. */
const showcaseKeyError = (iss: { code: string; keys?: string[] }) => {
  if (iss.code !== 'unrecognized_keys') return 'the body must be a JSON object';
  const key = iss.keys![0];
  return PICTURE_ONLY.has(key)
    ? `not a showcase-wide default (those are ${SHOWCASE_DEFAULT_FIELDS.join(', ')}); give it per picture in items`
    : undefined;
};

/** POST /api/v2/showcases (spec §2.3). */
export const CreateShowcaseBody = requestSchema(
  'CreateShowcaseRequestDto',
  z.strictObject(
    {
      ...showcaseFields,
      image_urls: imageUrls.meta({
        description: `Pictures by URL, converted with the showcase's presentation defaults. With items: at most ${PER_REQUEST} pictures per request together; image_urls come first.`,
        example: ['https://example.com/a.jpg'],
      }),
      items: items.meta({
        items: { $ref: '#/components/schemas/ShowcaseItemRequestDto' },
        maxItems: PER_REQUEST,
        description: `Pictures with their own presentation (banner, frame, ...). ${ITEM_MERGE} The per-showcase cap (SHOWCASE_MAX_ITEMS) counts image_urls and items together.`,
      }),
    },
    {
      error: (iss) =>
        iss.code === 'unrecognized_keys'
          ? showcaseKeyError(iss as never)
          : 'the body must be a JSON object; picture files are uploaded as multipart/form-data to POST /api/v2/showcases/{id}/items once the showcase exists',
    },
  ),
);

/** PATCH /api/v2/showcases/{id}: any create field but the pictures; a field left out stays, null clears it. */
export const UpdateShowcaseBody = requestSchema(
  'UpdateShowcaseRequestDto',
  z.strictObject(showcaseFields, {
    error: (iss) => {
      if (iss.code !== 'unrecognized_keys') return 'the body must be a JSON object with the fields to change';
      const key = (iss as { keys: string[] }).keys[0];
      if (key === 'image_urls' || key === 'items')
        return 'pictures are added with POST /api/v2/showcases/{id}/items and removed with DELETE /api/v2/showcases/{id}/items/{item_id}';
      return showcaseKeyError(iss as never);
    },
  }),
);

/** POST /api/v2/showcases/{id}/items as JSON. */
export const AddItemsBody = requestSchema(
  'AddItemsJsonDto',
  z.strictObject(
    {
      image_urls: imageUrls.meta({
        description: "Pictures by URL, with the showcase's presentation defaults. One of image_urls and items is required.",
        example: ['https://example.com/a.jpg'],
      }),
      items: items.meta({
        items: { $ref: '#/components/schemas/ShowcaseItemRequestDto' },
        maxItems: PER_REQUEST,
        description: `Pictures with their own presentation. ${ITEM_MERGE} At most ${PER_REQUEST} pictures per request, image_urls and items together.`,
      }),
    },
    {
      error: (iss) =>
        iss.code === 'unrecognized_keys'
          ? undefined
          : 'the body must be a JSON object {image_urls, items} or multipart/form-data with parts named "files"',
    },
  ),
);

export const UPLOAD_ITEMS_DESCRIPTION =
  'Optional text field (not a file), sent BEFORE the file parts: a JSON array with one entry per file part, in the same order, ' +
  `each an object with the presentation fields of a JSON item (${ITEM_FIELDS}) and no image_url; ` +
  `null or {} keeps the showcase's defaults. ${ITEM_MERGE} The number of entries must equal the number of file parts. ` +
  'Example: items=[{"title":"Dunes","price":"$120","link_url":"https://shop.example.com/dunes","call_to_action":"Buy"},{"frame":"canvas"}]. ' +
  'Validated before any file is stored; it is part of the Idempotency-Key fingerprint.';

/**
 * POST /api/v2/showcases/{id}/items as multipart/form-data. The parts are read as a stream (the files are
 * never buffered whole): the `items` text is checked entry by entry against {@link UploadItemBody}.
 */
export const AddItemsMultipart = requestSchema(
  'AddItemsMultipartDto',
  z.object({
    files: z.array(z.unknown()).meta({
      items: { type: 'string', format: 'binary' },
      description: 'One or more picture files (type sniffed from the bytes; UPLOAD_MAX_FILE_BYTES per file, UPLOAD_MAX_FILES per request).',
    }),
    items: z.string().optional().meta({
      description: UPLOAD_ITEMS_DESCRIPTION,
      example: '[{"title":"Dunes","frame":{"style":"classic","color":"oak"},"mat":{"width_inches":2}},{"frame":"canvas"}]',
    }),
  }),
);

export interface ShowcaseRequest {
  logoUrl: string | null;
  layout: Layout;
  description: string | null;
  customLinks: { title: string; url: string }[];
  branding: { tagline?: string; primary_color?: string; secondary_color?: string };
  /** Whether search engines may index the public page (default false: `noindex`); embed pages never are. */
  indexable: boolean;
  /** Whether the pages count engagement (default true). */
  analytics: boolean;
  units: 'in' | 'cm';
  locale: (typeof PAGE_LOCALES)[number];
  /** Showcase-wide presentation defaults (placement, allow_scaling, finish, frame, mat), as sent. */
  defaults: PresentationInput;
  /** The pictures of `image_urls`, then those of `items`, each with its presentation merged over the defaults. */
  pictures: PictureRequest[];
}

/** One picture to add: its URL and the presentation fields its job input carries. */
export interface PictureRequest {
  imageUrl: string;
  presentation: PresentationInput;
  /** Label, external id, availability and position (absent for image_urls). */
  catalogue?: Partial<ItemCatalogue>;
  /** The sizes and frames it is sold in (absent: none). */
  variants?: StoredVariant[];
}

/** The showcase fields of a validated body, as stored. */
function showcaseOf(b: z.output<typeof UpdateShowcaseBody>, sent: Record<string, unknown>): Omit<ShowcaseRequest, 'pictures'> {
  const branding: ShowcaseRequest['branding'] = {};
  if (b.branding?.tagline != null) branding.tagline = b.branding.tagline;
  if (b.branding?.primary_color != null) branding.primary_color = b.branding.primary_color;
  if (b.branding?.secondary_color != null) branding.secondary_color = b.branding.secondary_color;
  // Defaults are kept as sent (the pipeline resolves them), once checked together (a mat needs a frame).
  const defaults = acceptPresentation(sent, SHOWCASE_DEFAULT_FIELDS);
  return {
    logoUrl: b.logo_url ?? null,
    layout: b.layout_choice ?? 'branded',
    description: b.description ?? null,
    customLinks: (b.custom_links ?? []).map((l) => ({ title: l.title, url: l.url })),
    branding,
    indexable: b.indexable ?? false,
    analytics: b.analytics ?? true,
    units: b.units ?? 'in',
    locale: b.locale ?? 'en',
    defaults,
  };
}

/**
 * Validates a create-showcase body (spec §2.3). Throws a 400 naming the parameter.
 *
 * @example
 * parseShowcaseRequest({ layout_choice: 'branded', branding: { primary_color: '#0a66ff' }, image_urls: ['https://x/a.jpg'] })
 */
export function parseShowcaseRequest(body: unknown): ShowcaseRequest {
  const b = parseInput(CreateShowcaseBody, body);
  const fields = showcaseOf(b, body as Record<string, unknown>);
  return { ...fields, pictures: parsePictures(body as Record<string, unknown>, fields.defaults, { required: false }) };
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
): { imageUrl?: string; presentation: PresentationInput; catalogue: Partial<ItemCatalogue>; variants?: StoredVariant[] } {
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

/** `items`: an array of objects, one per picture (null when absent). */
export function itemArray(v: unknown): unknown[] | null {
  return parseInput(z.object({ items }), { items: v }).items ?? null;
}

/**
 * The pictures of a JSON body: `image_urls` (with the showcase's defaults) then `items` (each merged over
 * them), at most {@link SHOWCASE_LIMITS.imageUrlsPerRequest} together. `required`: at least one.
 */
export function parsePictures(
  body: Record<string, unknown>,
  defaults: PresentationInput,
  { required }: { required: boolean },
): PictureRequest[] {
  const list = itemArray(body.items);
  const missing = (message: string) => new UserError('parameter_missing', `image_urls: ${message}`, { param: 'image_urls' });
  if (required && !list?.length) {
    if (body.image_urls == null) throw missing('required: send image_urls or items (or multipart/form-data with parts named "files")');
    if (Array.isArray(body.image_urls) && body.image_urls.length === 0) throw missing('at least one URL');
  }
  const urls = parseInput(z.object({ image_urls: imageUrls }), { image_urls: body.image_urls }).image_urls ?? [];
  if (list && urls.length + list.length > PER_REQUEST)
    throw new UserError(
      'parameter_invalid',
      `items: at most ${PER_REQUEST} pictures per request, image_urls and items together (got ${urls.length + list.length})`,
      { param: 'items' },
    );
  const pictures: PictureRequest[] = [
    ...urls.map((u) => ({ imageUrl: u, presentation: { ...defaults } })),
    ...(list ?? []).map((v, i) => {
      const it = parseItem(v, i, defaults, { withUrl: true });
      return { imageUrl: it.imageUrl!, presentation: it.presentation, catalogue: it.catalogue, variants: it.variants };
    }),
  ];
  assertDistinctExternalIds((list ?? []).map((_, i) => pictures[urls.length + i].catalogue));
  return pictures;
}

/** The page fields of a stored showcase, as a create body would give them (what a PATCH is merged over). */
export interface StoredShowcaseFields {
  layout: string;
  logoUrl: string | null;
  description: string | null;
  customLinks: { title: string; url: string }[];
  branding: Record<string, unknown>;
  presentationDefaults: Record<string, unknown>;
  indexable?: boolean;
  analytics?: boolean;
}

/**
 * A PATCH body: any create field but the pictures, merged over the stored showcase and validated as a
 * whole, so a showcase can never be patched into a state a create would refuse. A field left out stays;
 * null clears it (back to its default). `branding` and `custom_links` are replaced whole, like every value.
 * New presentation defaults apply to pictures added afterwards; converted pictures keep theirs.
 */
export function parseShowcasePatch(body: unknown, current: StoredShowcaseFields): Omit<ShowcaseRequest, 'pictures'> {
  parseInput(UpdateShowcaseBody, body);
  const merged: Record<string, unknown> = {
    ...current.presentationDefaults,
    layout_choice: current.layout,
    logo_url: current.logoUrl,
    description: current.description,
    custom_links: current.customLinks,
    branding: current.branding,
    indexable: current.indexable ?? false,
    analytics: current.analytics ?? true,
  };
  for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
    if (v === null) delete merged[k];
    else merged[k] = v;
  }
  return showcaseOf(parseInput(UpdateShowcaseBody, merged), merged);
}

/* ---- editing an item in place ---- */

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
  presentation?: Record<string, unknown>;
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
