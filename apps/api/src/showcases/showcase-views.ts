import type { ItemVariant, ShowcaseItemRow, ShowcaseRow } from '@app/persistence';
import type { StillImageResult } from '@app/plugins';
import { dimensionsCm, pictureResult, progressView, type PublicUrls } from '@app/wire';
import type { StoragePort } from '@app/storage';

export function itemView(i: ShowcaseItemRow, urls: PublicUrls, storage: StoragePort) {
  const done = i.status === 'completed' && i.result;
  return {
    id: i.id,
    object: 'showcase_item' as const,
    showcase_id: i.showcaseId,
    job_id: i.jobId,
    status: i.status,
    progress: progressView(i.status, i.progress),
    source: i.source,
    ...(i.source === 'url' ? { source_url: i.sourceUrl } : { filename: i.filename }),
    ...(done ? pictureResult(i.result as unknown as StillImageResult, i.embedId, urls, storage) : {}),
    // An edited banner wins over the one the files were built with (it lives in the pages' links, not the files).
    ...(done && i.banner && !i.variants ? { banner: i.banner } : {}),
    artist: i.label.artist ?? null,
    year: i.label.year ?? null,
    medium: i.label.medium ?? null,
    edition: i.label.edition ?? null,
    description: i.label.description ?? null,
    external_id: i.externalId,
    availability: i.availability,
    position: i.position,
    variants: i.variants ? i.variants.map((v) => variantView(v, i, urls, storage)) : null,
    // A rebuild of its files in progress (the files above stay until it completes), or why the last one failed.
    ...(i.pendingJobId ? { rebuild_job_id: i.pendingJobId } : {}),
    ...(i.rebuildError
      ? {
          rebuild_error: {
            code: i.rebuildError.code,
            message: i.rebuildError.message,
            job_id: i.rebuildError.jobId,
            at: i.rebuildError.at,
          },
        }
      : {}),
    ...(i.status === 'failed' && i.error ? { error: { code: i.error.code, message: i.error.message } } : {}),
    created_at: new Date(i.createdAt).toISOString(),
  };
}

const SENT_SIZE = ['width_inches', 'height_inches', 'width_cm', 'height_cm', 'depth_inches', 'depth_cm'];
const withVariant = (url: string | null, sku: string) =>
  url ? `${url}${url.includes('?') ? '&' : '?'}variant=${encodeURIComponent(sku)}` : null;

/**
 * One variant of an item: its SKU, name, commerce fields, size and look as sent, and once built its files,
 * sizes and embed URLs (the item's, selecting it). `status`: ready (files serve it), building (its first
 * files are being made: with the item, or by `build_job_id`), failed (it has none; `error` says why).
 */
export function variantView(v: ItemVariant, i: ShowcaseItemRow, urls: PublicUrls, storage: StoragePort) {
  const b = v.build;
  const status = b ? 'ready' : v.pending_job_id || (!v.error && i.status !== 'failed') ? 'building' : 'failed';
  const embed = i.embedId ? urls.embed(i.embedId) : null;
  const dims = b?.dimensions as { width_inches: number; height_inches: number } | undefined;
  return {
    id: v.id,
    sku: v.sku,
    name: v.name || null,
    default: v.default,
    price: v.price,
    link_url: v.link_url,
    call_to_action: v.call_to_action,
    availability: v.availability,
    // The size as it was sent (inches or centimetres).
    ...Object.fromEntries(Object.entries(v.sent).filter(([k]) => SENT_SIZE.includes(k))),
    status,
    ...(b
      ? {
          usdz_url: storage.url(b.files.usdz.key),
          glb_url: storage.url(b.files.glb.key),
          preview_url: storage.url(b.files.poster.key),
          embed_url: withVariant(embed, v.sku),
          dimensions: b.dimensions,
          dimensions_cm: dims ? dimensionsCm(dims) : null,
          outer_dimensions: b.outer_dimensions,
          ...(b.fit ? { fit: b.fit } : {}),
          frame: b.frame ?? null,
          mat: b.mat ?? null,
          finish: b.finish ?? null,
          placement: b.placement ?? null,
        }
      : {}),
    // A build of new files in progress (the files above serve until it completes), or why the last one failed.
    ...(v.pending_job_id ? { build_job_id: v.pending_job_id } : {}),
    ...(v.error ? { error: { code: v.error.code, message: v.error.message, job_id: v.error.job_id, at: v.error.at } } : {}),
  };
}

/** What every view of a showcase starts with: its id and public addresses. */
function showcaseHead(s: ShowcaseRow, urls: PublicUrls) {
  return {
    id: s.id,
    object: 'showcase' as const,
    url: urls.showcase(s.publicId),
    embed_url: urls.showcaseEmbed(s.publicId),
    layout_choice: s.layout,
  };
}

/** A showcase in the caller's list: what a row shows, without its items. */
export function showcaseSummaryView(s: ShowcaseRow, itemCount: number, urls: PublicUrls) {
  return {
    ...showcaseHead(s, urls),
    description: s.description,
    item_count: itemCount,
    created_at: new Date(s.createdAt).toISOString(),
  };
}

export function showcaseView(s: ShowcaseRow, items: ShowcaseItemRow[], urls: PublicUrls, storage: StoragePort) {
  return {
    ...showcaseHead(s, urls),
    logo_url: s.logoUrl,
    description: s.description,
    custom_links: s.customLinks,
    branding: s.branding,
    // The items' presentation defaults given at creation (placement, allow_scaling, finish, frame, mat), as sent.
    presentation_defaults: s.presentationDefaults ?? {},
    indexable: s.indexable === true,
    analytics: s.analytics !== false,
    units: s.units,
    locale: s.locale,
    created_at: new Date(s.createdAt).toISOString(),
    items: items.map((i) => itemView(i, urls, storage)),
  };
}
