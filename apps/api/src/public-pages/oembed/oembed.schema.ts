import { queryInt, text, z } from '@app/schema';

/** The largest maxwidth / maxheight taken: no embed is drawn wider or taller than this anyway (oembed-frame.ts). */
export const OEMBED_MAX_PIXELS = 10_000;

/** The longest page URL taken (as every other URL parameter of the API). */
export const OEMBED_MAX_URL = 2048;

/** `?maxwidth=` / `?maxheight=`: a whole number of CSS pixels; empty is absent (consumers send `maxwidth=`). */
const maxPixels = (what: string) =>
  z
    .preprocess(
      (v) => (v === '' ? undefined : v),
      queryInt({ max: OEMBED_MAX_PIXELS, message: `a whole number of pixels from 1 to ${OEMBED_MAX_PIXELS}` }).optional(),
    )
    .describe(`The largest ${what} the consumer can show, in CSS pixels: the iframe and thumbnail fit within it.`);

/**
 * GET /oembed (oembed.com §2.2): the page URL, the box it must fit and the format. Other parameters are
 * ignored, as the spec asks of providers. `format` is checked by the service, not here: a well-formed format
 * this service does not write is 501, not 400 (§2.3.5).
 */
export const OembedQuery = z.object({
  url: text(OEMBED_MAX_URL, { required: 'required', invalid: `a URL of at most ${OEMBED_MAX_URL} characters` }).describe(
    "A showcase, item, wall or embed page's address on this service.",
  ),
  maxwidth: maxPixels('width'),
  maxheight: maxPixels('height'),
  format: text(16, { invalid: 'at most 16 characters' })
    .transform((v) => v.toLowerCase())
    .optional()
    .describe('json (the default). Any other format answers 501: this service writes no XML.'),
});

export type OembedRequest = z.output<typeof OembedQuery>;
