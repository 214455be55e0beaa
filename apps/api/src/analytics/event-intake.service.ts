import { Inject, Injectable } from '@nestjs/common';
import {
  ANALYTICS_BUFFER,
  type AnalyticsBufferPort,
  BeaconBody,
  type CountedEvent,
  isBotUserAgent,
  optedOut,
  referrerHost,
  utcDay,
  visitorHash,
} from '@app/analytics';
import type { AppConfig } from '@app/config';
import { APP_CONFIG, PromMetrics } from '@app/runtime';
import { parseInput } from '@app/schema';
import { ApiError } from '../http/api-error';
import { clientBucket } from '../http/rate-limit/client-bucket';
import { RATE_LIMITER, type RateLimiterPort } from '../http/rate-limit/rate-limiter.port';
import { SiteResolver } from './site-resolver.service';

/** A beacon sent again (a retry, a page restored from the back-forward cache) within a day counts once. */
const SEEN_TTL_MS = 24 * 3600_000;

/** What the beacon's request says about who sent it (read once, never stored). */
export interface BeaconSender {
  ip: string;
  userAgent: string | undefined;
  headers: Record<string, string | string[] | undefined>;
}

/** Why a beacon's events were not counted (a metrics label; the answer is the same 204 whatever it is). */
export type NotCounted = 'disabled' | 'opted_out' | 'bot' | 'unknown_site' | 'rate_limited' | 'duplicate' | 'unknown_item';

/**
 * Takes a beacon (POST /api/events): checks it (400 for a malformed one), then, unless the deployment or the
 * showcase has analytics off, the visitor sent DNT or Sec-GPC, the user agent is a bot or the visitor is over
 * the rate, turns each event into a {@link CountedEvent} for its page's owner and appends it to the buffer.
 * The owner comes from the site id; an event naming an item or a variant that page does not have is dropped,
 * so a beacon cannot write into another account's counts. Only the visitor's daily-salted hash is kept.
 */
@Injectable()
export class EventIntake {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(ANALYTICS_BUFFER) private readonly buffer: AnalyticsBufferPort,
    @Inject(RATE_LIMITER) private readonly limiter: RateLimiterPort,
    private readonly sites: SiteResolver,
    private readonly metrics: PromMetrics,
  ) {
    this.ownHost = new URL(config.publicBaseUrl).hostname;
  }

  /** The service's own host: a referrer from it is '' (parsed once, not per beacon). */
  private readonly ownHost: string;

  /** How many of the beacon's events will be counted (the route answers 204 either way). */
  async accept(raw: unknown, sender: BeaconSender, now = new Date()): Promise<number> {
    const body = parseInput(BeaconBody, parseBody(raw));
    const n = body.events.length;
    const skip = (reason: NotCounted, count = n) => {
      this.metrics.analyticsNotCounted(reason, count);
      return 0;
    };
    if (!this.config.analytics.enabled) return skip('disabled');
    if (optedOut(sender.headers)) return skip('opted_out');
    if (isBotUserAgent(sender.userAgent)) return skip('bot');
    // Events, not beacons, per client: an IPv4 address or an IPv6 /64, whatever user agent it sends (rotating it
    // made every beacon a new visitor with a fresh limit). Before the site lookup: a flood costs no query.
    if (!(await this.within(`events-ip:${clientBucket(sender.ip)}`, this.config.analytics.eventsPerMinute, n))) return skip('rate_limited');
    const site = await this.sites.resolve(body.site);
    if (!site) return skip('unknown_site');
    if (!site.enabled) return skip('disabled');
    // And per page from every client together, so many addresses cannot pour a day of counts into one page either.
    if (!(await this.within(`events-site:${body.site}`, this.config.analytics.siteEventsPerMinute, n))) return skip('rate_limited');

    const day = utcDay(now);
    const salt = await this.buffer.salt(day);
    const visitor = visitorHash(salt, sender.ip, sender.userAgent ?? '', body.site);

    const events: { id: string; event: CountedEvent }[] = [];
    const referrer = referrerHost(body.referrer ?? undefined, this.ownHost);
    let unknown = 0;
    for (const e of body.events) {
      const itemId = site.itemId ?? e.item_id ?? 0;
      const skus = itemId ? site.items.get(itemId) : undefined;
      if (
        (itemId && !skus) ||
        (site.itemId !== null && e.item_id != null && e.item_id !== site.itemId) ||
        (e.variant && !skus?.has(e.variant))
      ) {
        unknown++;
        continue;
      }
      const event: CountedEvent = {
        day,
        ownerId: site.ownerId,
        showcaseId: site.showcaseId,
        itemId,
        surface: e.surface,
        variant: e.variant ?? '',
        kind: e.kind,
        platform: e.kind === 'ar_launch' ? (e.platform ?? '') : '',
        referrerHost: referrer,
        visitor,
      };
      // Set, not spread in: a conditional spread per event cost more than the rest of the object (profiled flood).
      if (site.jobId) event.jobId = site.jobId;
      events.push({ id: `${body.site}:${e.id}`, event });
    }
    if (unknown) skip('unknown_item', unknown);
    const counted = await this.buffer.appendFresh(events, SEEN_TTL_MS);
    if (counted < events.length) skip('duplicate', events.length - counted);
    return counted;
  }

  /**
   * Counts a beacon's `cost` events against a bucket's minute. A limiter that fails lets them through: limits
   * protect, they must not drop every beacon while Redis is away.
   */
  private async within(bucket: string, limit: number, cost: number): Promise<boolean> {
    const d = await this.limiter.consume(bucket, limit, 60_000, cost).catch(() => null);
    return d?.allowed ?? true;
  }
}

/** A text/plain beacon is JSON text; a JSON one arrives parsed. */
function parseBody(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  try {
    return JSON.parse(raw);
  } catch {
    throw ApiError.invalid('body', 'the body must be JSON: {site, events: [...]}', 'invalid_body');
  }
}
