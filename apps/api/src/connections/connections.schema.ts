import { FRAME_STYLES } from '@app/plugins';
import { requestSchema, z } from '@app/schema';
import { normaliseShopDomain } from '@app/shops';

/** Request shapes of the shop connection routes (docs/api.md, "Shop connections"; issue 41). */

export const CONNECTION_PLATFORMS = ['shopify', 'woocommerce'] as const;
export const SHOPIFY_PUSH = ['metafields', 'metafields+media', 'none'] as const;
export const WOOCOMMERCE_PUSH = ['metafields', 'none'] as const;
export const CONNECTION_UNITS = ['cm', 'in'] as const;
export const DEFAULT_SYNC_INTERVAL_HOURS = 24;
/** A week: a shop synced less often than that is better synced by hand (or by its webhooks). */
export const MAX_SYNC_INTERVAL_HOURS = 168;
const MAX_FRAMES = 50;
const MAX_SHOP_URL = 300;

/** A credential as the shop issued it: printable, no spaces, bounded. Never echoed in an error. */
const credential = (what: string) =>
  z
    .string({ error: () => `must be a string (${what})` })
    .min(1, { error: () => `must not be empty (${what})` })
    .max(512, { error: () => 'at most 512 characters' })
    .refine((v) => /^[\x21-\x7e]+$/.test(v), { error: () => 'must be printable ASCII without spaces (paste it as the shop shows it)' })
    .meta({ writeOnly: true, description: `${what}. Stored encrypted; never returned.` });

const shopDomain = z
  .string({ error: () => 'must be a string: <name>.myshopify.com' })
  .max(300, { error: () => 'at most 300 characters' })
  .transform((v, ctx) => {
    try {
      return normaliseShopDomain(v);
    } catch {
      ctx.addIssue({ code: 'custom', message: "must be <name>.myshopify.com (the shop's own domain, not a custom one)" });
      return z.NEVER;
    }
  })
  .meta({ description: "The shop's `<name>.myshopify.com` domain (not a custom domain).", example: 'prints.myshopify.com' });

/** An https store address, kept without query, fragment or trailing slash (WordPress in a folder keeps its path). */
const shopUrl = z
  .string({ error: () => 'must be a string: the https address of the store' })
  .max(MAX_SHOP_URL, { error: () => `at most ${MAX_SHOP_URL} characters` })
  .transform((v, ctx) => {
    let url: URL;
    try {
      url = new URL(v.trim());
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be the https address of the store' });
      return z.NEVER;
    }
    // WooCommerce takes its keys over HTTP Basic only on https: over http they would travel in clear.
    if (url.protocol !== 'https:') {
      ctx.addIssue({ code: 'custom', message: 'must use https (WooCommerce sends its keys in clear over http)' });
      return z.NEVER;
    }
    if (url.username || url.password) {
      ctx.addIssue({ code: 'custom', message: 'must not contain credentials (give consumer_key and consumer_secret)' });
      return z.NEVER;
    }
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  })
  .meta({
    description: 'The store\'s https address (a WordPress in a folder: "https://example.com/shop").',
    example: 'https://shop.example.com',
  });

const showcaseId = z
  .number({ error: () => 'must be a showcase id (a whole number)' })
  .int({ error: () => 'must be a showcase id (a whole number)' })
  .positive({ error: () => 'must be a showcase id (a whole number)' })
  .meta({ description: "The caller's showcase the shop's products go to.", example: 12 });

const units = z
  .enum(CONNECTION_UNITS, { error: () => 'must be cm or in' })
  .meta({ default: 'cm', description: 'How a size written without units ("50 x 70") is read.' });

const frames = z
  .record(
    z
      .string()
      .min(1, { error: () => 'an option value must not be empty' })
      .max(100, { error: () => 'an option value is at most 100 characters' }),
    z
      .enum(FRAME_STYLES as [string, ...string[]], {
        error: () => `must be a frame preset (${FRAME_STYLES.join(', ')}) or null for no frame`,
      })
      .nullable()
      // OpenAPI 3.0 wants null among a nullable enum's values.
      .meta({ enum: [...FRAME_STYLES, null] }),
    { error: () => 'must be an object {option value: frame preset or null}' },
  )
  .refine((f) => Object.keys(f).length <= MAX_FRAMES, { error: () => `at most ${MAX_FRAMES} option values` })
  .meta({
    description: `Option value → frame preset (${FRAME_STYLES.join(', ')}), or null for "no frame"; compared trimmed and case-insensitively. At most ${MAX_FRAMES}.`,
    example: { 'Oak frame': 'classic', Unframed: null },
  });

const syncIntervalHours = z
  .number({ error: () => `must be a whole number of hours from 0 (off) to ${MAX_SYNC_INTERVAL_HOURS}` })
  .int({ error: () => `must be a whole number of hours from 0 (off) to ${MAX_SYNC_INTERVAL_HOURS}` })
  .min(0, { error: () => `must be a whole number of hours from 0 (off) to ${MAX_SYNC_INTERVAL_HOURS}` })
  .max(MAX_SYNC_INTERVAL_HOURS, { error: () => `must be a whole number of hours from 0 (off) to ${MAX_SYNC_INTERVAL_HOURS}` })
  .meta({ default: DEFAULT_SYNC_INTERVAL_HOURS, description: 'Hours between scheduled syncs; 0 = no schedule.' });

const shopifyPush = z.enum(SHOPIFY_PUSH, { error: () => `must be one of ${SHOPIFY_PUSH.join(', ')}` }).meta({
  default: 'metafields',
  description:
    'What is written back to the shop: the `image_ar.model` metafields; with "metafields+media" also the GLB in the product media; "none": nothing.',
});

const wooPush = z
  .enum(WOOCOMMERCE_PUSH, {
    error: (iss) =>
      iss.input === 'metafields+media'
        ? 'metafields+media is for Shopify only; a WooCommerce connection takes metafields or none'
        : `must be one of ${WOOCOMMERCE_PUSH.join(', ')}`,
  })
  .meta({
    default: 'metafields',
    description: 'What is written back to the shop: the `image_ar` meta on products and variations, or "none".',
  });

const settings = {
  units: units.optional(),
  frames: frames.optional(),
  sync_interval_hours: syncIntervalHours.optional(),
};

const object = (what: string) => ({
  error: (iss: { code?: string }) => (iss.code === 'unrecognized_keys' ? undefined : `must be a JSON object {${what}}`),
});

const ShopifyConnectionBody = z.strictObject(
  {
    platform: z.literal('shopify'),
    shop_domain: shopDomain,
    access_token: credential("the custom app's Admin API access token (shpat_…)"),
    webhook_secret: credential("the app's API secret key, which signs its webhooks"),
    showcase_id: showcaseId,
    push: shopifyPush.optional(),
    ...settings,
  },
  object('platform: "shopify", shop_domain, access_token, webhook_secret, showcase_id, ...'),
);

const WooCommerceConnectionBody = z.strictObject(
  {
    platform: z.literal('woocommerce'),
    shop_url: shopUrl,
    consumer_key: credential('the REST API consumer key (ck_…), Read/Write'),
    consumer_secret: credential('the REST API consumer secret (cs_…)'),
    webhook_secret: credential("the secret set on the store's product webhooks"),
    showcase_id: showcaseId,
    push: wooPush.optional(),
    ...settings,
  },
  object('platform: "woocommerce", shop_url, consumer_key, consumer_secret, webhook_secret, showcase_id, ...'),
);

/** POST /api/v2/connections: a Shopify or a WooCommerce shop, told apart by `platform`. */
export const CreateConnectionBody = requestSchema(
  'CreateConnectionRequestDto',
  z.discriminatedUnion('platform', [ShopifyConnectionBody, WooCommerceConnectionBody], {
    error: (iss) =>
      iss.code === 'invalid_union' && (iss as { note?: string }).note === 'No matching discriminator'
        ? { message: 'must be shopify or woocommerce', path: ['platform'] }
        : 'must be a JSON object {platform, ...}',
  }),
);
export type CreateConnectionRequest = z.output<typeof CreateConnectionBody>;

/**
 * PATCH /api/v2/connections/{id}: settings, a pause, or new credentials (those of the connection's platform; the
 * service checks which). The shop and the showcase stay: connect again to change them.
 */
export const UpdateConnectionBody = requestSchema(
  'UpdateConnectionRequestDto',
  z.strictObject(
    {
      push: shopifyPush.optional().meta({ description: 'As on create ("metafields+media": Shopify only).' }),
      ...settings,
      status: z
        .enum(['active', 'paused'], { error: () => 'must be active or paused' })
        .optional()
        .meta({ description: 'paused: no scheduled or webhook syncs until active again.' }),
      access_token: credential('Shopify: a new Admin API access token').optional(),
      consumer_key: credential('WooCommerce: a new consumer key (with consumer_secret)').optional(),
      consumer_secret: credential('WooCommerce: a new consumer secret (with consumer_key)').optional(),
      webhook_secret: credential('a new webhook secret').optional(),
    },
    object('push?, units?, frames?, sync_interval_hours?, status?, credentials?'),
  ),
);
export type UpdateConnectionRequest = z.output<typeof UpdateConnectionBody>;
