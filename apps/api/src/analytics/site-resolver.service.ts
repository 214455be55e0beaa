import { Injectable } from '@nestjs/common';
import { AnalyticsRepository } from '@app/persistence';
import { TtlCache } from '../http/ttl-cache';

/** Whose page a beacon's site id is, and what it may name: looked up, never taken from the beacon. */
export interface Site {
  ownerId: string;
  /** 0 for a conversion's own embed pages (v1: no showcase). */
  showcaseId: number;
  /** An embed's item (its events are about it whatever they say); null for a showcase's pages. */
  itemId: number | null;
  /** A conversion outside any showcase (its API job id, the site being its emb_ id); '' for a showcase's pages. */
  jobId: string;
  enabled: boolean;
  /** The showcase's items and each one's variant SKUs. */
  items: Map<number, Set<string>>;
}

/** How long a site lookup is trusted (a new item or an analytics switch shows within this). */
const TTL_MS = 5_000;
const MAX_SITES = 10_000;

/**
 * Resolves a beacon's `site` (a showcase's shw_ id, an item's or a v1 conversion's emb_ id) to its owner, showcase and items,
 * cached briefly: a busy page sends a beacon per view, and the lookup would otherwise be most of its cost.
 */
@Injectable()
export class SiteResolver {
  private readonly cache = new TtlCache<Site | null>({ ttlMs: TTL_MS, maxEntries: MAX_SITES });

  constructor(private readonly repo: AnalyticsRepository) {}

  resolve(site: string): Promise<Site | null> {
    return this.cache.get(site, () => this.lookup(site));
  }

  private async lookup(site: string): Promise<Site | null> {
    if (site.startsWith('shw_')) {
      const s = await this.repo.siteOfShowcase(site);
      return (
        s && {
          ownerId: s.ownerId,
          showcaseId: s.showcaseId,
          itemId: null,
          jobId: '',
          enabled: s.enabled,
          items: await this.repo.itemsOf(s.showcaseId),
        }
      );
    }
    const e = await this.repo.siteOfEmbed(site);
    if (!e) return null;
    // A v1 conversion's embed page: the job's owner, no showcase and no items (an event naming one is dropped).
    if ('jobId' in e) return { ownerId: e.ownerId, showcaseId: 0, itemId: null, jobId: e.jobId, enabled: e.enabled, items: new Map() };
    return {
      ownerId: e.ownerId,
      showcaseId: e.showcaseId,
      itemId: e.itemId,
      jobId: '',
      enabled: e.enabled,
      items: await this.repo.itemsOf(e.showcaseId),
    };
  }
}
