/**
 * The Connections page's words in one place: platforms, what is written back, frame presets, statuses and what
 * to do about them, and the credentials each platform asks for (docs/integrations.md says how to make them).
 */
import type { Connection, ShowcaseSummary } from '../../shared/api-types';

export type Platform = Connection['platform'];
export type Push = Connection['push'];
export type FramePreset = NonNullable<Connection['frames'][string]>;

export const PLATFORM_NAMES: Record<Platform, string> = { shopify: 'Shopify', woocommerce: 'WooCommerce' };

/** What a platform's connection can write back, in the order the select lists it (the first is the default). */
export const PUSH_CHOICES: Record<Platform, { value: Push; label: string }[]> = {
  shopify: [
    { value: 'metafields', label: 'AR links (metafields)' },
    { value: 'metafields+media', label: 'AR links and the 3D model (media)' },
    { value: 'none', label: 'Nothing' },
  ],
  woocommerce: [
    { value: 'metafields', label: 'AR links (meta data)' },
    { value: 'none', label: 'Nothing' },
  ],
};

export function pushLabel(platform: Platform, push: Push): string {
  const found = PUSH_CHOICES[platform].filter(function (c) {
    return c.value === push;
  })[0];
  return found ? found.label : push;
}

/** Frame presets an option value can map to; "" stands for null (no frame). */
export const FRAME_CHOICES: { value: '' | FramePreset; label: string }[] = [
  { value: '', label: 'No frame' },
  { value: 'thin', label: 'Thin' },
  { value: 'classic', label: 'Classic' },
  { value: 'float', label: 'Float' },
  { value: 'canvas', label: 'Canvas wrap' },
];

export function frameLabel(preset: FramePreset | null): string {
  const v = preset === 'none' ? '' : preset || '';
  const found = FRAME_CHOICES.filter(function (c) {
    return c.value === v;
  })[0];
  return found ? found.label : String(preset);
}

export const STATUS_LABELS: Record<Connection['status'], string> = {
  active: 'Active',
  paused: 'Paused',
  unauthorized: 'Unauthorized',
};

/** Why a connection is unauthorized and what to do, per platform. */
export const UNAUTHORIZED_HELP: Record<Platform, string> = {
  shopify:
    "The shop refused the stored access token: it was revoked, or the app lacks a scope (read_products, write_products, write_files). Nothing syncs until it is replaced. In the shop's admin open Settings → Apps and sales channels → Develop apps → your app, install it again with those scopes, copy its new Admin API access token and enter it under Edit.",
  woocommerce:
    'The store refused the stored key: it was revoked, or it is not Read/Write. Nothing syncs until it is replaced. In WordPress open WooCommerce → Settings → Advanced → REST API, add a Read/Write key, then enter its consumer key and secret under Edit.',
};

export interface CredentialField {
  name: 'access_token' | 'webhook_secret' | 'consumer_key' | 'consumer_secret';
  label: string;
  hint: string;
}

/** The shop address field and the secrets each platform asks for. */
export const SHOP_FIELD: Record<
  Platform,
  { name: 'shop_domain' | 'shop_url'; label: string; hint: string; type: string; placeholder: string }
> = {
  shopify: {
    name: 'shop_domain',
    label: 'Shop domain',
    hint: "The shop's own myshopify.com domain, not a custom one.",
    type: 'text',
    placeholder: 'your-shop.myshopify.com',
  },
  woocommerce: {
    name: 'shop_url',
    label: 'Store address',
    hint: 'The https address of the WordPress site (with its folder, if WordPress is in one).',
    type: 'url',
    placeholder: 'https://shop.example.com',
  },
};

export const CREDENTIALS: Record<Platform, CredentialField[]> = {
  shopify: [
    {
      name: 'access_token',
      label: 'Admin API access token',
      hint: "The custom app's token (shpat_…), with the scopes read_products, write_products and write_files.",
    },
    { name: 'webhook_secret', label: 'Webhook secret', hint: "The app's API secret key: Shopify signs the webhooks with it." },
  ],
  woocommerce: [
    { name: 'consumer_key', label: 'Consumer key', hint: 'A Read/Write REST API key (ck_…).' },
    { name: 'consumer_secret', label: 'Consumer secret', hint: 'Its secret (cs_…).' },
    { name: 'webhook_secret', label: 'Webhook secret', hint: "The secret you set on the store's product webhooks." },
  ],
};

/** What a saved secret's empty input says: it is kept unless a new one is typed. */
export const SAVED_SECRET = 'saved — enter to replace';

export function showcaseName(id: number, showcases: ShowcaseSummary[]): string {
  const s = showcases.filter(function (x) {
    return x.id === id;
  })[0];
  return 'Showcase ' + id + (s && s.description ? ' — ' + s.description : '');
}

export function intervalText(hours: number): string {
  return hours > 0 ? 'Every ' + (hours === 1 ? 'hour' : hours + ' hours') : 'Off (Sync now and webhooks only)';
}
