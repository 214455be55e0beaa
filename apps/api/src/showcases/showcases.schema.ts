import { PRESENTATION_FIELDS, presentationDefaultsShape } from '@app/plugins';
import { bool, httpUrl, parseInput, requestSchema, text, z } from '@app/schema';
import { UserError } from '@app/pipeline';
import { cursorQuery, limitQuery, PG_INT_MAX } from '../http/list-query';
import { ITEM_FIELDS, ITEM_MERGE } from './item/item-body.schema';
import { assertDistinctExternalIds, parseItem, type PictureRequest } from './item/item-request';
import { acceptPresentation, type PresentationInput, SHOWCASE_DEFAULT_FIELDS } from './item/presentation-request';

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
/** Picture fields that are not showcase-wide defaults: sent at the top level, they get a pointer to `items`. */
const PICTURE_ONLY = new Set<string>(PRESENTATION_FIELDS.filter((f) => !SHOWCASE_DEFAULT_FIELDS.includes(f)));

/** GET /api/v2/showcases. */
export const ShowcaseListQuery = z.object({
  cursor: cursorQuery(/^([1-9][0-9]{0,9})$/, ([id]) => Number(id) <= PG_INT_MAX),
  limit: limitQuery(100, 20),
});

/** The locales the public pages speak. */
export const PAGE_LOCALES = ['en', 'de', 'fr', 'es', 'it', 'nl', 'ja'] as const;

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

/** POST /api/v2/showcases (docs/api.md "v2 Pro Showcases"). */
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
 * Validates a create-showcase body (docs/api.md "v2 Pro Showcases"). Throws a 400 naming the parameter.
 *
 * @example
 * parseShowcaseRequest({ layout_choice: 'branded', branding: { primary_color: '#0a66ff' }, image_urls: ['https://x/a.jpg'] })
 */
export function parseShowcaseRequest(body: unknown): ShowcaseRequest {
  const b = parseInput(CreateShowcaseBody, body);
  const fields = showcaseOf(b, body as Record<string, unknown>);
  return { ...fields, pictures: parsePictures(body as Record<string, unknown>, fields.defaults, { required: false }) };
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
