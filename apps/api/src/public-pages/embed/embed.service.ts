import { Inject, Injectable } from '@nestjs/common';
import QRCode from 'qrcode';
import { t, type Locale } from '@app/catalogue';
import {
  DataDeletionRepository,
  defaultVariant,
  isStandaloneEmbed,
  type ItemVariant,
  JobRepository,
  ShowcaseItemRepository,
  ShowcaseRepository,
  type JobEntity,
} from '@app/persistence';
import type { StillImageResult } from '@app/plugins';
import type { AppConfig } from '@app/config';
import { APP_CONFIG, STORAGE } from '@app/runtime';
import { PublicUrls } from '@app/wire';
import type { StoragePort } from '@app/storage';
import { esc } from '../../http/html';
import { artwork, type Artwork } from '../artwork';
import { QR_MARKER, tapBase } from '../beacon';
import { askedLocale, pageLocale, withLang, type PageLocale } from '../page-locale';
import { failedPage, interactivePage, pendingPage, staticPage } from './embed-page';
import { detectPlatform, launchPresentation, type Platform } from '../platform';
import { shopSize, variantAvailability, variantResult } from '../showcase/page-variants';

/** A plain page (404, 410) in the visitor's `?lang=`, English otherwise. */
function plainPage(locale: Locale, title: string, text: string): string {
  return `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><title>${esc(title)}</title></head><body>${esc(text)}</body></html>`;
}
const notFoundPage = (l: Locale) => plainPage(l, t(l, 'page.notFound'), t(l, 'page.notFound'));
const gonePage = (l: Locale) => plainPage(l, t(l, 'status.deletedTitle'), t(l, 'status.deleted'));

/** What a showcase picture's embed page takes from its showcase: language, units, the work's label, an edited banner. */
interface ShowcaseContext {
  loc: PageLocale;
  banner: Record<string, unknown> | null;
  /** The item's result as its pages show it (the edited banner; with variants, the default's files over it). */
  result: Record<string, unknown> | null;
  variants: ItemVariant[] | null;
  label: { artist?: string; year?: string; medium?: string; edition?: string; description?: string };
  availability: string;
  filename: string | null;
  /** The item's id, and whether its showcase counts engagement (analytics). */
  itemId: number;
  /** The showcase's public id (the room view's address). */
  showcasePublicId: string;
  analytics: boolean;
}

@Injectable()
export class EmbedService {
  constructor(
    private readonly jobs: JobRepository,
    private readonly urls: PublicUrls,
    @Inject(STORAGE) private readonly storage: StoragePort,
    private readonly deletions: DataDeletionRepository,
    private readonly showcases: ShowcaseRepository,
    private readonly showcaseItems: ShowcaseItemRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * A showcase picture's context (its embed page speaks the showcase's language, in its units, and shows
   * the work's label), or null for any other job. Three small reads, only for picture jobs.
   */
  private async showcaseContext(job: JobEntity, lang: unknown): Promise<ShowcaseContext | null> {
    if (job.kind !== 'v2.picture' || !job.ownerId) return null;
    const ref = await this.showcaseItems.itemForJob(job.id);
    const s = ref ? await this.showcases.findForOwner(ref.showcaseId, job.ownerId) : null;
    const item = ref && s ? await this.showcaseItems.item(s.id, ref.id) : null;
    if (!s || !item) return null;
    return {
      loc: pageLocale(lang, s.locale, s.units),
      banner: item.banner,
      result: item.result,
      variants: item.variants,
      label: item.label,
      availability: item.availability,
      filename: item.filename,
      itemId: item.id,
      showcasePublicId: s.publicId,
      analytics: s.analytics,
    };
  }

  /** A showcase picture's room view inside the frame: `?variant=` (the shown one), `embed=1` and the visitor's `?lang=`. */
  private roomUrl(sc: ShowcaseContext, sku: string | undefined): string {
    const variant = sku ? `variant=${encodeURIComponent(sku)}&` : '';
    return withLang(`${this.urls.base}/showcase/${sc.showcasePublicId}/items/${sc.itemId}/room?${variant}embed=1`, sc.loc.lang);
  }

  async render(
    publicId: string,
    variant: 'interactive' | 'static',
    userAgent?: string,
    forced?: string,
    lang?: unknown,
    variantSku?: unknown,
  ): Promise<{ status: number; html: string; cache: string }> {
    const job = /^emb_[a-z2-7]{24}$/.test(publicId) ? await this.jobs.findByPublicId(publicId) : null;
    if (!job) {
      // A deleted job leaves a tombstone: 410 tells embedding sites to drop the page, 404 is for typos.
      const gone = /^emb_[a-z2-7]{24}$/.test(publicId) && (await this.deletions.tombstone({ publicId }));
      const l = askedLocale(lang) ?? 'en';
      return gone
        ? { status: 410, html: gonePage(l), cache: 'public, max-age=300' }
        : { status: 404, html: notFoundPage(l), cache: 'no-store' };
    }
    const sc = await this.showcaseContext(job, lang);
    const loc = sc?.loc ?? pageLocale(lang, 'en');
    if (job.status === 'failed') return { status: 200, html: failedPage(loc), cache: 'no-store' };
    if (job.status !== 'completed' || !job.result) return { status: 200, html: pendingPage(job.progress, loc), cache: 'no-store' };
    // An edited banner wins over the one the files were built with.
    let r = (sc?.banner ? { ...job.result, banner: sc.banner } : job.result) as StillImageResult;
    let availability = sc?.availability;
    let pageUrl = this.urls.embed(publicId);
    /** The variant the page shows (an item sold in several sizes and frames). */
    let shownSku: string | undefined;
    const def = sc?.variants ? defaultVariant(sc.variants) : undefined;
    if (sc?.variants && sc.result && def) {
      // An item sold in several sizes and frames: `?variant=<sku>` shows that one, else (an unknown SKU, an old link) the default.
      const asked = typeof variantSku === 'string' ? sc.variants.find((v) => v.sku === variantSku) : undefined;
      const shown = asked ?? def;
      if (!shown.build) {
        if (asked && (shown.pending_job_id || !shown.error)) return { status: 200, html: pendingPage(0, loc), cache: 'no-store' };
        if (asked) return { status: 200, html: failedPage(loc), cache: 'no-store' };
      } else {
        r = variantResult(sc.result, shown, def) as unknown as StillImageResult;
        availability = variantAvailability(sc.availability, shown);
        shownSku = shown.sku;
      }
      if (asked) pageUrl = `${pageUrl}?variant=${encodeURIComponent(asked.sku)}`;
    }
    const posterUrl = this.storage.url(r.files.poster.key);
    const cache = 'public, max-age=300';
    // A showcase picture with analytics on sends beacons as its item (site: this embed id); a conversion of its
    // own (v1, animated AR: the widget's pages) as its job, the same events under the same site id, for the
    // job's owner (SiteResolver). No item there: its Scene Viewer banner link goes through the tap route as item 0.
    const standalone = !sc && isStandaloneEmbed(job);
    const beacon =
      this.config.analytics.enabled && (sc ? sc.analytics : standalone)
        ? {
            url: `${this.urls.base}/api/events`,
            site: publicId,
            surface: 'embed' as const,
            ...(sc ? { item_id: sc.itemId } : {}),
            ...(shownSku ? { variant: shownSku } : {}),
            taps: tapBase(this.urls.base, publicId),
          }
        : undefined;
    if (variant === 'static') {
      return {
        status: 200,
        html: staticPage({
          posterUrl,
          widthInches: r.dimensions.width_inches,
          heightInches: r.dimensions.height_inches,
          loc,
          beacon,
          pageUrl,
          oembed: `${this.urls.base}/oembed`,
        }),
        cache,
      };
    }
    const presentation = launchPresentation(r);
    const work: Artwork | undefined = sc
      ? artwork(
          {
            label: sc.label,
            availability: availability ?? sc.availability,
            title: presentation?.banner.title ?? sc.filename,
            price: presentation?.banner.price,
            result: r,
          },
          loc,
        )
      : undefined;
    // Sold in sizes: the chosen variant's size, stated as every size is (shopSize).
    if (work?.size && sc?.variants) work.size = shopSize(r.dimensions.width_inches, r.dimensions.height_inches, presentation, loc);
    const platform: Platform = forced === 'ios' || forced === 'android' || forced === 'desktop' ? forced : detectPlatform(userAgent);
    // The phone that opens the QR code's address reports a qr_open (beacon.ts), then drops the marker.
    const qrUrl = beacon ? `${pageUrl}${pageUrl.includes('?') ? '&' : '?'}${QR_MARKER}` : pageUrl;
    const qrSvg = platform === 'desktop' ? await QRCode.toString(qrUrl, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }) : '';
    return {
      status: 200,
      cache,
      html: interactivePage(
        {
          pageUrl,
          posterUrl,
          glbUrl: this.storage.url(r.files.glb.key),
          usdzUrl: this.storage.url(r.files.usdz.key),
          widthInches: r.dimensions.width_inches,
          heightInches: r.dimensions.height_inches,
          qrSvg,
          assetBase: this.urls.base,
          animated: job.kind === 'v2.animated-ar',
          presentation,
          artwork: work,
          loc,
          beacon,
          oembed: `${this.urls.base}/oembed`,
          ...(sc ? { roomUrl: this.roomUrl(sc, shownSku) } : {}),
          // The widget switches between the item's ready variants inside this page (embed-page.ts VARIANT_SWITCH_SCRIPT).
          ...(shownSku && sc?.variants
            ? { variants: { shown: shownSku, ready: sc.variants.filter((v) => v.build).map((v) => v.sku) } }
            : {}),
        },
        platform,
      ),
    };
  }
}
