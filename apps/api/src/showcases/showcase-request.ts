import { PRESENTATION_FIELDS } from '@app/plugins';
import { ApiError } from '../http/api-error';
import { requestUrl } from '../http/request-url';
import {
  acceptPresentation,
  mergeItemPresentation,
  type PresentationInput,
  SHOWCASE_DEFAULT_FIELDS,
} from '../presentation/presentation-request';

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

const HEX = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
const KNOWN = new Set([
  'logo_url',
  'layout_choice',
  'description',
  'custom_links',
  'branding',
  'indexable',
  'image_urls',
  'items',
  ...SHOWCASE_DEFAULT_FIELDS,
]);
/** Fields of one entry of `items` (JSON); an entry of a multipart upload's `items` field has no image_url. */
const ITEM_KEYS = new Set<string>(['image_url', ...PRESENTATION_FIELDS]);
const BRANDING_KEYS = new Set(['tagline', 'primary_color', 'secondary_color']);

export interface ShowcaseRequest {
  logoUrl: string | null;
  layout: Layout;
  description: string | null;
  customLinks: { title: string; url: string }[];
  branding: { tagline?: string; primary_color?: string; secondary_color?: string };
  /** Whether search engines may index the public page (default false: `noindex`); embed pages never are. */
  indexable: boolean;
  /** Showcase-wide presentation defaults (placement, allow_scaling, finish, frame, mat), as sent. */
  defaults: PresentationInput;
  /** The pictures of `image_urls`, then those of `items`, each with its presentation merged over the defaults. */
  pictures: PictureRequest[];
}

/** One picture to add: its URL and the presentation fields its job input carries. */
export interface PictureRequest {
  imageUrl: string;
  presentation: PresentationInput;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An http(s) URL without credentials, at most `max` characters. */
export const httpUrl = (param: string, v: unknown, max: number = SHOWCASE_LIMITS.url): string => requestUrl(param, v, { max });

function text(param: string, v: unknown, max: number): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw ApiError.invalid(param, `${param}: must be a string`);
  if (v.length > max) throw ApiError.invalid(param, `${param}: at most ${max} characters`);
  return v;
}

/** `image_urls`: 1..20 http(s) URLs (or none when optional). */
export function parseImageUrls(v: unknown, { required }: { required: boolean }): string[] {
  if (v === undefined || v === null) {
    if (required)
      throw ApiError.invalid(
        'image_urls',
        'image_urls: required: send image_urls or items (or multipart/form-data with parts named "files")',
        'parameter_missing',
      );
    return [];
  }
  if (!Array.isArray(v)) throw ApiError.invalid('image_urls', 'image_urls: must be an array of URLs');
  if (required && v.length === 0) throw ApiError.invalid('image_urls', 'image_urls: at least one URL', 'parameter_missing');
  if (v.length > SHOWCASE_LIMITS.imageUrlsPerRequest)
    throw ApiError.invalid('image_urls', `image_urls: at most ${SHOWCASE_LIMITS.imageUrlsPerRequest} per request`);
  return v.map((u, i) => httpUrl(`image_urls[${i}]`, u, 4096));
}

/**
 * Validates a create-showcase body (spec §2.3). Throws a 400 {@link ApiError} naming the parameter.
 *
 * @example
 * parseShowcaseRequest({ layout_choice: 'branded', branding: { primary_color: '#0a66ff' }, image_urls: ['https://x/a.jpg'] })
 */
export function parseShowcaseRequest(body: unknown): ShowcaseRequest {
  if (!isObject(body)) {
    // Usually a multipart upload sent here: say where files go.
    throw new ApiError(
      400,
      'invalid_request_error',
      'invalid_body',
      'the body must be a JSON object; picture files are uploaded as multipart/form-data to POST /api/v2/showcases/{id}/items once the showcase exists',
    );
  }
  const unknown = Object.keys(body).find((k) => !KNOWN.has(k));
  if (unknown && unknown !== 'image_url' && ITEM_KEYS.has(unknown)) {
    throw ApiError.invalid(
      unknown,
      `${unknown}: not a showcase-wide default (those are ${SHOWCASE_DEFAULT_FIELDS.join(', ')}); give it per picture in items`,
      'parameter_unknown',
    );
  }
  if (unknown) throw ApiError.invalid(unknown, `${unknown}: unknown parameter`, 'parameter_unknown');

  const layout = body.layout_choice ?? 'branded';
  if (typeof layout !== 'string' || !(LAYOUTS as readonly string[]).includes(layout)) {
    throw ApiError.invalid('layout_choice', `layout_choice: must be one of ${LAYOUTS.join(', ')}`);
  }
  const links = body.custom_links ?? [];
  if (!Array.isArray(links)) throw ApiError.invalid('custom_links', 'custom_links: must be an array of {title, url}');
  if (links.length > SHOWCASE_LIMITS.links) throw ApiError.invalid('custom_links', `custom_links: at most ${SHOWCASE_LIMITS.links}`);
  const customLinks = links.map((l, i) => {
    if (!isObject(l)) throw ApiError.invalid(`custom_links[${i}]`, `custom_links[${i}]: must be an object {title, url}`);
    const extra = Object.keys(l).find((k) => k !== 'title' && k !== 'url');
    if (extra) throw ApiError.invalid(`custom_links[${i}].${extra}`, `custom_links[${i}].${extra}: unknown parameter`, 'parameter_unknown');
    const title = text(`custom_links[${i}].title`, l.title, SHOWCASE_LIMITS.linkTitle);
    if (!title?.trim()) throw ApiError.invalid(`custom_links[${i}].title`, `custom_links[${i}].title: required`, 'parameter_missing');
    return { title, url: httpUrl(`custom_links[${i}].url`, l.url) };
  });

  const b = body.branding ?? {};
  if (!isObject(b)) throw ApiError.invalid('branding', 'branding: must be an object {tagline, primary_color, secondary_color}');
  const extra = Object.keys(b).find((k) => !BRANDING_KEYS.has(k));
  if (extra) throw ApiError.invalid(`branding.${extra}`, `branding.${extra}: unknown parameter`, 'parameter_unknown');
  const branding: ShowcaseRequest['branding'] = {};
  const tagline = text('branding.tagline', b.tagline, SHOWCASE_LIMITS.tagline);
  if (tagline !== undefined) branding.tagline = tagline;
  for (const key of ['primary_color', 'secondary_color'] as const) {
    if (b[key] === undefined || b[key] === null) continue;
    if (typeof b[key] !== 'string' || !HEX.test(b[key] as string))
      throw ApiError.invalid(`branding.${key}`, `branding.${key}: must be a hex colour like #0a66ff`);
    branding[key] = (b[key] as string).toLowerCase();
  }

  const indexable = body.indexable ?? false;
  if (typeof indexable !== 'boolean') throw ApiError.invalid('indexable', 'indexable: must be true or false');

  const defaults = acceptPresentation(body, SHOWCASE_DEFAULT_FIELDS);
  return {
    logoUrl: body.logo_url === undefined || body.logo_url === null ? null : httpUrl('logo_url', body.logo_url),
    layout: layout as Layout,
    description: text('description', body.description, SHOWCASE_LIMITS.description) ?? null,
    customLinks,
    branding,
    indexable,
    defaults,
    pictures: parsePictures(body, defaults, { required: false }),
  };
}

/**
 * One entry of `items`: an object with the picture's presentation fields (and `image_url` unless
 * `withUrl` is false: a multipart upload's entries describe its file parts). Errors name `items[i].field`.
 */
export function parseItem(
  v: unknown,
  i: number,
  defaults: PresentationInput,
  { withUrl }: { withUrl: boolean },
): { imageUrl?: string; presentation: PresentationInput } {
  const param = `items[${i}]`;
  if (v === null && !withUrl) return { presentation: { ...defaults } };
  if (!isObject(v))
    throw ApiError.invalid(
      param,
      `${param}: must be an object {${withUrl ? 'image_url, ' : ''}title, subtitle, link_url, call_to_action, price, placement, allow_scaling, finish, frame, mat}`,
    );
  for (const k of Object.keys(v)) {
    if (k === 'image_url' && !withUrl)
      throw ApiError.invalid(
        `${param}.image_url`,
        `${param}.image_url: an upload's items describe its file parts, in order; send URLs as JSON`,
        'parameter_unknown',
      );
    if (!ITEM_KEYS.has(k)) throw ApiError.invalid(`${param}.${k}`, `${param}.${k}: unknown parameter`, 'parameter_unknown');
  }
  let imageUrl: string | undefined;
  if (withUrl) {
    if (v.image_url === undefined || v.image_url === null || v.image_url === '')
      throw ApiError.invalid(`${param}.image_url`, `${param}.image_url: required`, 'parameter_missing');
    imageUrl = httpUrl(`${param}.image_url`, v.image_url, 4096);
  }
  return { imageUrl, presentation: mergeItemPresentation(v, defaults, `${param}.`) };
}

/** `items`: an array of objects, one per picture (null when absent). */
export function itemArray(v: unknown): unknown[] | null {
  if (v === undefined || v === null) return null;
  if (!Array.isArray(v)) throw ApiError.invalid('items', 'items: must be an array of objects, one per picture');
  return v;
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
  const items = itemArray(body.items);
  const urls = parseImageUrls(body.image_urls, { required: required && !items?.length });
  const max = SHOWCASE_LIMITS.imageUrlsPerRequest;
  if (items && urls.length + items.length > max)
    throw ApiError.invalid(
      'items',
      `items: at most ${max} pictures per request, image_urls and items together (got ${urls.length + items.length})`,
    );
  return [
    ...urls.map((u) => ({ imageUrl: u, presentation: { ...defaults } })),
    ...(items ?? []).map((v, i) => {
      const it = parseItem(v, i, defaults, { withUrl: true });
      return { imageUrl: it.imageUrl!, presentation: it.presentation };
    }),
  ];
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
}

/**
 * A PATCH body: any create field but the pictures, merged over the stored showcase and validated as a
 * whole, so a showcase can never be patched into a state a create would refuse. A field left out stays;
 * null clears it (back to its default). `branding` and `custom_links` are replaced whole, like every value.
 * New presentation defaults apply to pictures added afterwards; converted pictures keep theirs.
 */
export function parseShowcasePatch(body: unknown, current: StoredShowcaseFields): Omit<ShowcaseRequest, 'pictures'> {
  if (!isObject(body))
    throw new ApiError(400, 'invalid_request_error', 'invalid_body', 'the body must be a JSON object with the fields to change');
  for (const k of ['image_urls', 'items']) {
    if (k in body)
      throw ApiError.invalid(
        k,
        `${k}: pictures are added with POST /api/v2/showcases/{id}/items and removed with DELETE /api/v2/showcases/{id}/items/{item_id}`,
        'parameter_unknown',
      );
  }
  const merged: Record<string, unknown> = {
    ...current.presentationDefaults,
    layout_choice: current.layout,
    logo_url: current.logoUrl,
    description: current.description,
    custom_links: current.customLinks,
    branding: current.branding,
    indexable: current.indexable ?? false,
  };
  for (const [k, v] of Object.entries(body)) {
    if (v === null) delete merged[k];
    else merged[k] = v;
  }
  // Unknown fields are named as in a create (parseShowcaseRequest checks every key).
  const { pictures: _none, ...fields } = parseShowcaseRequest(merged);
  return fields;
}
