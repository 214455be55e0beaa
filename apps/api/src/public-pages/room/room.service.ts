import { Inject, Injectable } from '@nestjs/common';
import { t } from '@app/catalogue';
import { UserError } from '@app/pipeline';
import { STORAGE } from '@app/runtime';
import type { StoragePort } from '@app/storage';
import { PublicUrls } from '@app/wire';
import { ApiError } from '../../http/api-error';
import { placedPictures } from '../../walls/wall-pictures';
import { VisitorWalls } from '../../walls/visitor-walls.service';
import { plainSize, withLang } from '../page-locale';
import { sizeLabel } from '../platform';
import { selectedVariant } from '../showcase/page-variants';
import { displayTitle, outerInches, type PageItem, type ReadyItem } from '../showcase/showcase-items';
import { localeOf } from '../showcase/showcase-page';
import { notFoundHtml, type Rendered, ShowcasePageService, togetherItems } from '../showcase/showcase-page.service';
import { togetherCsp, togetherErrorPage } from '../showcase/together-page';
import { setPictures } from './homography';
import { WIDGET_FRAME_NAME } from '../beacon';
import type { PageShowcase } from '../showcase/showcase-page';
import { roomCsp, roomPage, type RoomBeacon } from './room-page';
import { askedLocale } from '../page-locale';

const notFound = (lang: unknown): Rendered => ({
  status: 404,
  html: notFoundHtml(askedLocale(lang)),
  cache: 'no-store',
  indexable: false,
  beacon: false,
});

/** The view's beacon where the showcase counts engagement (its pages' analytics), else none. */
function beaconOf(model: PageShowcase, embed: boolean, items: number[], variant?: string): RoomBeacon | undefined {
  const a = model.analytics;
  return a
    ? { url: a.url, site: a.site, surface: embed ? 'embed' : 'item', frame: WIDGET_FRAME_NAME, items, ...(variant ? { variant } : {}) }
    : undefined;
}

/** `?embed=1`: the view inside an embed frame (the embed page's link). */
const inFrame = (embed: unknown): boolean => embed === '1' || embed === 'true';

/**
 * The room view's pages (room-page.ts): one item (its selected variant's outer size, the size the wall pages
 * draw: outerInches) or a visitor's set laid out as its together page lays it out (VisitorWalls.plan).
 */
@Injectable()
export class RoomService {
  constructor(
    private readonly pages: ShowcasePageService,
    private readonly visitorWalls: VisitorWalls,
    private readonly urls: PublicUrls,
    @Inject(STORAGE) private readonly storage: StoragePort,
  ) {}

  async item(
    publicId: string,
    itemId: string,
    q: { lang: unknown; variant: unknown; embed: unknown },
    ua: string | undefined,
    forced: string | undefined,
  ): Promise<Rendered> {
    const found = await this.pages.pageModel(publicId, q.lang);
    const i = found?.model.items.find((x) => String(x.id) === itemId);
    if (!found || !i?.ready) return notFound(q.lang);
    const selected = selectedVariant(i.variants, typeof q.variant === 'string' ? q.variant : undefined);
    const shown: PageItem & { ready: ReadyItem } = selected ? selected.item : (i as PageItem & { ready: ReadyItem });
    const r = shown.ready;
    // A floor piece stands on the floor: a wall photo is not its place.
    if (r.presentation?.placement === 'floor') return notFound(q.lang);
    const embed = inFrame(q.embed);
    const loc = localeOf(found.model);
    const { w, h } = outerInches(r);
    const title = displayTitle(i);
    return {
      status: 200,
      html: roomPage({
        showcase: found.model,
        platform: ShowcasePageService.platform(ua, forced),
        heading: t(loc.locale, 'room.heading', { title }),
        pageUrl: r.roomUrl ?? r.itemUrl,
        back: embed ? r.embedUrl : r.itemUrl,
        pictures: [{ item: i.id, title, src: r.posterUrl, dx: 0, dy: 0, width: w, height: h }],
        // The picture's size, and the framed size it is drawn at (labelled), as its card states them.
        size: sizeLabel(r.widthInches, r.heightInches, r.presentation, loc),
        embed,
        beacon: beaconOf(found.model, embed, [i.id], selected?.sku),
      }),
      cache: 'public, max-age=60',
      indexable: false,
      beacon: found.model.analytics !== undefined,
      csp: roomCsp(embed, found.model.analytics !== undefined),
    };
  }

  /** A visitor's set (`?items=…&arrangement=…` as the together page takes them), keeping its arrangement and gaps. */
  async together(
    publicId: string,
    q: { items: unknown; item: unknown; arrangement: unknown; lang: unknown; embed: unknown },
    ua: string | undefined,
    forced: string | undefined,
  ): Promise<Rendered> {
    const found = await this.pages.pageModel(publicId, q.lang);
    if (!found || !this.visitorWalls.enabled) return notFound(q.lang);
    const loc = localeOf(found.model);
    const platform = ShowcasePageService.platform(ua, forced);
    let plan;
    try {
      plan = await this.visitorWalls.plan(found.row, togetherItems(q.items, q.item), q.arrangement, found.rows);
    } catch (e) {
      const status = e instanceof UserError ? 400 : e instanceof ApiError && (e.status === 400 || e.status === 409) ? e.status : null;
      if (!status) throw e;
      return {
        status,
        html: togetherErrorPage(found.model, platform, status),
        cache: 'no-store',
        indexable: false,
        beacon: false,
        csp: togetherCsp(this.urls.base),
      };
    }
    const byId = new Map(found.model.items.map((i) => [i.id, i]));
    const places = placedPictures(plan.arrangement, plan.pictures);
    const set = setPictures(places.map((p) => ({ x: p.x_inches, y: p.y_inches, w: p.width_inches, h: p.height_inches })));
    const pictures = places.map((p, k) => {
      const own = byId.get(p.item_id);
      return {
        item: p.item_id,
        title: (own ? displayTitle(own) : null) ?? p.title ?? t(loc.locale, 'item.pictureNumber', { n: k + 1 }),
        src: this.storage.url(p.poster_key),
        ...set[k]!,
      };
    });
    const left = Math.min(...set.map((p) => p.dx - p.width / 2));
    const right = Math.max(...set.map((p) => p.dx + p.width / 2));
    const top = Math.min(...set.map((p) => p.dy - p.height / 2));
    const bottom = Math.max(...set.map((p) => p.dy + p.height / 2));
    const arrangement = plan.spec.arrangement;
    const together = withLang(`${this.urls.showcaseTogether(found.row.publicId, plan.items)}&arrangement=${arrangement}`, loc.lang);
    const r3 = (v: number) => Math.round(v * 100) / 100;
    return {
      status: 200,
      html: roomPage({
        showcase: found.model,
        platform,
        heading: t(loc.locale, 'room.headingSet'),
        pageUrl: withLang(
          `${this.urls.base}/showcase/${found.row.publicId}/together/room?items=${encodeURIComponent(plan.items)}&arrangement=${arrangement}`,
          loc.lang,
        ),
        back: together,
        pictures,
        size: plainSize(r3(right - left), r3(bottom - top), loc),
        overall: true,
        embed: inFrame(q.embed),
        beacon: beaconOf(
          found.model,
          inFrame(q.embed),
          pictures.map((p) => p.item),
        ),
      }),
      cache: 'public, max-age=60',
      indexable: false,
      beacon: found.model.analytics !== undefined,
      csp: roomCsp(inFrame(q.embed), found.model.analytics !== undefined),
    };
  }
}
