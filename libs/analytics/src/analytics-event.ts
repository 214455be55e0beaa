import { requestSchema, z } from '@app/schema';

/** What a page reports (docs/analytics.md). */
export const EVENT_KINDS = ['view', 'interact', 'ar_launch', 'banner_tap', 'qr_open', 'variant_select', 'room_view'] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

/** Where an AR launch went: iOS AR Quick Look, Android Scene Viewer, or WebXR in the browser. */
export const PLATFORMS = ['quick_look', 'scene_viewer', 'webxr'] as const;
export type Platform = (typeof PLATFORMS)[number];

/** The public surface an event came from. */
export const SURFACES = ['showcase', 'item', 'wall', 'embed', 'widget', 'qr'] as const;
export type Surface = (typeof SURFACES)[number];

/** Events per beacon: a page batches what happened since its last one. */
export const MAX_EVENTS_PER_BEACON = 20;

const publicId = (prefix: string) =>
  z
    .string({ error: () => `must be a ${prefix}_ id` })
    .regex(new RegExp(`^${prefix}_[A-Za-z0-9]{4,40}$`), { error: () => `must be a ${prefix}_ id` });

/** One event as a page sends it. */
export const BeaconEvent = z.strictObject(
  {
    kind: z.enum(EVENT_KINDS, { error: () => `must be one of ${EVENT_KINDS.join(', ')}` }),
    surface: z.enum(SURFACES, { error: () => `must be one of ${SURFACES.join(', ')}` }),
    item_id: z
      .number({ error: () => 'must be an item id' })
      .int({ error: () => 'must be an item id' })
      .min(1, { error: () => 'must be an item id' })
      .max(2_147_483_647, { error: () => 'must be an item id' })
      .nullish(),
    variant: z
      .string({ error: () => 'must be a SKU' })
      .min(1, { error: () => 'must be a SKU' })
      .max(64, { error: () => 'at most 64 characters' })
      .nullish(),
    platform: z.enum(PLATFORMS, { error: () => `must be one of ${PLATFORMS.join(', ')}` }).nullish(),
    /** A random id the page gives each event: a beacon sent twice is counted once. */
    id: z
      .string({ error: () => 'must be 8 to 40 letters, digits, - or _' })
      .regex(/^[A-Za-z0-9_-]{8,40}$/, { error: () => 'must be 8 to 40 letters, digits, - or _' }),
  },
  { error: (iss) => (iss.code === 'unrecognized_keys' ? undefined : 'must be an event object {id, kind, surface, ...}') },
);
export type BeaconEvent = z.output<typeof BeaconEvent>;

/**
 * POST /api/events: whose page it is (a showcase's `shw_` id or an item's `emb_` id; the owner is looked up
 * from it, never taken from the beacon) and up to {@link MAX_EVENTS_PER_BEACON} events. Sent with
 * navigator.sendBeacon as text/plain JSON.
 */
export const BeaconBody = requestSchema(
  'AnalyticsBeaconRequestDto',
  z
    .strictObject(
      {
        site: z.union([publicId('shw'), publicId('emb')], { error: () => 'must be a showcase (shw_) or embed (emb_) id' }).meta({
          description: "The page's showcase id (shw_…) or the embedded item's id (emb_…): whose page it is.",
          example: 'shw_4kq9x0a1b2',
        }),
        referrer: z
          .string({ error: () => 'must be a URL' })
          .max(2048, { error: () => 'at most 2048 characters' })
          .nullish()
          .meta({ description: "The page's document.referrer: only its host is counted (none: a direct visit)." }),
        events: z
          .array(BeaconEvent, { error: () => 'must be an array of events' })
          .min(1, { error: () => 'must hold at least one event' })
          .max(MAX_EVENTS_PER_BEACON, { error: () => `at most ${MAX_EVENTS_PER_BEACON} events per beacon` }),
      },
      { error: (iss) => (iss.code === 'unrecognized_keys' ? undefined : 'the body must be a JSON object {site, events: [...]}') },
    )
    .superRefine((b, ctx) => {
      b.events.forEach((e, i) => {
        if (e.kind === 'ar_launch' && !e.platform)
          ctx.addIssue({
            code: 'custom',
            path: ['events', i, 'platform'],
            message: 'an ar_launch needs its platform',
            params: { code: 'parameter_missing' },
          });
        if (e.kind === 'variant_select' && !e.variant)
          ctx.addIssue({
            code: 'custom',
            path: ['events', i, 'variant'],
            message: 'a variant_select needs its variant',
            params: { code: 'parameter_missing' },
          });
      });
    }),
);
export type BeaconBody = z.output<typeof BeaconBody>;

/** An event accepted for counting: who it belongs to, when, and the visitor's daily hash. Never an IP or a user agent. */
export interface CountedEvent {
  /** The day it happened, UTC, `YYYY-MM-DD`. */
  day: string;
  ownerId: string;
  /** 0: no showcase (the embed pages of a conversion outside one: see jobId). */
  showcaseId: number;
  /** 0: the showcase page as a whole. */
  itemId: number;
  /** The conversion (its API job id) whose own embed pages these are, outside any showcase (v1); '' or absent otherwise. */
  jobId?: string;
  surface: Surface;
  /** The variant's SKU, or ''. */
  variant: string;
  kind: EventKind;
  /** '' unless an AR launch. */
  platform: Platform | '';
  /** The referring site's host name, or '' (none, or the service's own pages). */
  referrerHost: string;
  /** The visitor's daily-salted hash (IP + user agent + site). Kept in the buffer only, never in the database. */
  visitor: string;
  /**
   * Whether this event was the visitor's first of the day on the showcase and on the item: set by the buffer
   * when it takes the event (it remembers the day's visitors for two days), counted as unique visitors.
   */
  firstVisit?: { showcase: boolean; item: boolean };
}

/** The key under which a buffer remembers that a visitor was seen on a day, on a showcase (item 0) or an item. */
export const visitorMark = (e: Pick<CountedEvent, 'day' | 'showcaseId' | 'visitor'>, itemId: number): string =>
  `v:${e.day}:${e.showcaseId}:${itemId}:${e.visitor}`;

/** How long a buffer remembers a visitor mark: the day and the next (late events). */
export const VISITOR_MARK_TTL_MS = 2 * 86_400_000;
