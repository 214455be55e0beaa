import { randomBytes } from 'node:crypto';
import { Controller, Get, Injectable, Logger, Param, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SURFACES, type Surface } from '@app/analytics';
import { isStandaloneEmbed, JobRepository, ShowcaseItemRepository, type ShowcaseItemRow, ShowcaseRepository } from '@app/persistence';
import { EventIntake } from '../analytics/event-intake.service';
import { PG_INT_MAX } from '../http/list-query';
import { httpsUrl } from './platform';

/** An item's banner links (normalised https URLs) and its variants' SKUs. */
export interface ItemLinks {
  /** 0: a conversion of its own (v1), whose embed page is the site. */
  itemId: number;
  links: Set<string>;
  skus: Set<string>;
}

/** Where a tap route may send a visitor: the links the item's own pages show, nothing else. */
@Injectable()
export class BannerLinks {
  constructor(
    private readonly showcases: ShowcaseRepository,
    private readonly showcaseItems: ShowcaseItemRepository,
    private readonly jobs: JobRepository,
  ) {}

  /**
   * The item `itemId` of a site (a showcase's shw_ id, or the emb_ id of that very item's embed page) with
   * its banner links: the edited banner's, the result's, and each variant's; item `0` of a v1 conversion's emb_
   * id (no item: the job is the site), its result's banner link. Null for anything else.
   */
  async find(site: string, itemId: string): Promise<ItemLinks | null> {
    if (itemId === '0') return this.ofJob(site);
    if (!/^[1-9]\d{0,9}$/.test(itemId) || Number(itemId) > PG_INT_MAX) return null;
    const id = Number(itemId);
    let item: ShowcaseItemRow | null = null;
    if (/^shw_[a-z2-7]{24}$/.test(site)) {
      const s = await this.showcases.findByPublicId(site);
      item = s ? await this.showcaseItems.item(s.id, id) : null;
    } else if (/^emb_[a-z2-7]{24}$/.test(site)) {
      const job = await this.jobs.findByPublicId(site);
      const ref = job ? await this.showcaseItems.itemForJob(job.id) : null;
      item = ref && ref.id === id ? await this.showcaseItems.item(ref.showcaseId, ref.id) : null;
    }
    if (!item) return null;
    const banner = (b: unknown) => (b && typeof b === 'object' ? (b as Record<string, unknown>).link_url : undefined);
    const candidates = [banner(item.banner), banner(item.result?.banner), ...(item.variants ?? []).map((v) => v.link_url)];
    const links = new Set(candidates.map(httpsUrl).filter((u): u is string => u !== undefined));
    return { itemId: item.id, links, skus: new Set((item.variants ?? []).map((v) => v.sku)) };
  }

  /** A conversion outside any showcase that its embed page counts as (EmbedService, SiteResolver): its banner link. */
  private async ofJob(site: string): Promise<ItemLinks | null> {
    const job = /^emb_[a-z2-7]{24}$/.test(site) ? await this.jobs.findByPublicId(site) : null;
    if (!job || !isStandaloneEmbed(job)) return null;
    const banner = job.result?.banner;
    const link = httpsUrl(banner && typeof banner === 'object' ? (banner as Record<string, unknown>).link_url : undefined);
    return { itemId: 0, links: new Set(link ? [link] : []), skus: new Set() };
  }
}

/**
 * GET /r/{site}/{item}?to=<link>&s=<surface>&v=<sku>: the Scene Viewer banner's link on an https service
 * (beacon.ts, tapLink). Scene Viewer opens the link itself, out of the page's sight: this route counts the tap
 * as a `banner_tap` (through EventIntake, like a beacon: not for DNT / GPC, bots, a showcase with analytics
 * off) and redirects to `to` — only when `to` is one of that item's own banner links (400 otherwise, 404 for an
 * unknown site or item): never an open redirect.
 */
@ApiExcludeController()
@Controller('r')
export class BannerRedirectController {
  private readonly log = new Logger('BannerRedirect');

  constructor(
    private readonly items: BannerLinks,
    private readonly intake: EventIntake,
  ) {}

  private static plain(reply: FastifyReply, status: number, text: string): void {
    void reply
      .status(status)
      .header('content-type', 'text/plain; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('x-content-type-options', 'nosniff')
      .header('x-robots-tag', 'noindex')
      .send(text);
  }

  @Get(':site/:itemId')
  async go(
    @Param('site') site: string,
    @Param('itemId') itemId: string,
    @Query('to') to: unknown,
    @Query('s') surface: unknown,
    @Query('v') variant: unknown,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const item = await this.items.find(site, itemId);
    if (!item) return BannerRedirectController.plain(reply, 404, 'Not found');
    const target = httpsUrl(to);
    if (!target || !item.links.has(target)) return BannerRedirectController.plain(reply, 400, "Not this item's link");
    const from: Surface = SURFACES.includes(surface as Surface) ? (surface as Surface) : site.startsWith('shw_') ? 'showcase' : 'embed';
    const sku = typeof variant === 'string' && item.skus.has(variant) ? variant : undefined;
    const ua = req.headers['user-agent'];
    // Counted on the side: the visitor is on their way whatever happens to the count.
    void this.intake
      .accept(
        {
          site,
          events: [
            {
              id: randomBytes(12).toString('hex'),
              kind: 'banner_tap',
              surface: from,
              ...(item.itemId ? { item_id: item.itemId } : {}),
              ...(sku ? { variant: sku } : {}),
            },
          ],
        },
        { ip: req.ip, userAgent: Array.isArray(ua) ? ua[0] : ua, headers: req.headers },
      )
      .catch((e: unknown) => this.log.warn(`banner tap not counted: ${(e as Error).message}`));
    void reply
      .status(302)
      .header('location', target)
      .header('cache-control', 'no-store')
      .header('x-robots-tag', 'noindex')
      .header('referrer-policy', 'strict-origin-when-cross-origin')
      .send();
  }
}
