import { MemoryAnalyticsBuffer } from '@app/analytics';
import type { AppConfig } from '@app/config';
import type { PromMetrics } from '@app/runtime';
import { MemoryRateLimiter } from '../http/rate-limit/memory-rate-limiter.adapter';
import { EventIntake } from './event-intake.service';
import type { SiteResolver } from './site-resolver.service';

const UA = (i: number) => `Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Version/17.${i} Mobile Safari/604.1`;

/** The intake with its real buffer and limiter (the embedded mode's), one showcase site, and the metrics it reports. */
function intake(limits: { ip: number; site: number }) {
  const buffer = new MemoryAnalyticsBuffer();
  const dropped = new Map<string, number>();
  const config = {
    publicBaseUrl: 'https://ar.example.com',
    analytics: { enabled: true, eventsPerMinute: limits.ip, siteEventsPerMinute: limits.site, flushMs: 1000 },
  } as unknown as AppConfig;
  const site = { ownerId: 'usr_1', showcaseId: 7, itemId: null, jobId: '', enabled: true, items: new Map([[3, new Set<string>()]]) };
  const sites = { resolve: async (id: string) => (id.startsWith('shw_') ? site : null) } as unknown as SiteResolver;
  const metrics = {
    analyticsNotCounted: (reason: string, n: number) => dropped.set(reason, (dropped.get(reason) ?? 0) + n),
  } as unknown as PromMetrics;
  return { intake: new EventIntake(config, buffer, new MemoryRateLimiter(), sites, metrics), dropped };
}

let seq = 0;
const beacon = (site = 'shw_gallery01') => ({
  site,
  events: Array.from({ length: 20 }, () => ({ id: `ev${String(seq++).padStart(8, '0')}`, kind: 'view', surface: 'item', item_id: 3 })),
});

describe('EventIntake limits', () => {
  it('700 beacons × 20 events from one IP with rotating user agents count at most ANALYTICS_EVENTS_PER_MINUTE events', async () => {
    const { intake: i, dropped } = intake({ ip: 600, site: 60_000 });
    let counted = 0;
    for (let n = 0; n < 700; n++) counted += await i.accept(beacon(), { ip: '198.51.100.7', userAgent: UA(n), headers: {} });
    expect(counted).toBe(600);
    expect(dropped.get('rate_limited')).toBe(700 * 20 - 600);
    // Another client still counts.
    expect(await i.accept(beacon(), { ip: '198.51.100.8', userAgent: UA(0), headers: {} })).toBe(20);
  });

  it('an IPv6 client is one client across its /64, and the IPv4-mapped spelling of an address is that address', async () => {
    const { intake: i } = intake({ ip: 100, site: 60_000 });
    let counted = 0;
    for (let n = 0; n < 50; n++)
      counted += await i.accept(beacon(), { ip: `2001:db8:7:7::${n.toString(16)}`, userAgent: UA(n), headers: {} });
    expect(counted).toBe(100);
    expect(await i.accept(beacon(), { ip: '2001:db8:7:8::1', userAgent: UA(0), headers: {} })).toBe(20);
    counted = 0;
    for (let n = 0; n < 10; n++)
      counted += await i.accept(beacon(), { ip: n % 2 ? '203.0.113.9' : '::ffff:203.0.113.9', userAgent: UA(n), headers: {} });
    expect(counted).toBe(100);
  });

  it('a page counts at most ANALYTICS_SITE_EVENTS_PER_MINUTE events from every client together', async () => {
    const { intake: i, dropped } = intake({ ip: 600, site: 1_000 });
    let counted = 0;
    for (let n = 0; n < 200; n++) counted += await i.accept(beacon(), { ip: `203.0.113.${n}`, userAgent: UA(n), headers: {} });
    expect(counted).toBe(1_000);
    expect(dropped.get('rate_limited')).toBe(200 * 20 - 1_000);
  });
});
