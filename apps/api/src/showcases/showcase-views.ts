import type { ShowcaseItemRow, ShowcaseRow } from '@app/persistence';
import type { StillImageResult } from '@app/plugins';
import { pictureResult, progressView, type PublicUrls } from '@app/wire';
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
    ...(done && i.banner ? { banner: i.banner } : {}),
    artist: i.label.artist ?? null,
    year: i.label.year ?? null,
    medium: i.label.medium ?? null,
    edition: i.label.edition ?? null,
    description: i.label.description ?? null,
    external_id: i.externalId,
    availability: i.availability,
    position: i.position,
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
    units: s.units,
    locale: s.locale,
    created_at: new Date(s.createdAt).toISOString(),
    items: items.map((i) => itemView(i, urls, storage)),
  };
}
