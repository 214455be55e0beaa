import type { JobEntity, ShowcaseItemRow, ShowcaseRow } from '@app/persistence';
import type { StillImageResult } from '@app/plugins';
import type { PublicUrls } from '@app/runtime';
import type { StoragePort } from '@app/storage';

/** 0..100 with one decimal; 100 once completed. */
const progressView = (status: string, progress: number) => (status === 'completed' ? 100 : Math.round(progress * 10) / 10);

/** Result of a completed picture job (the still-image pipeline's output, as URLs). */
export function pictureResult(r: StillImageResult, embedId: string | null, urls: PublicUrls, storage: StoragePort) {
  return {
    usdz_url: storage.url(r.files.usdz.key),
    glb_url: storage.url(r.files.glb.key),
    preview_url: storage.url(r.files.poster.key),
    embed_url: embedId ? urls.embed(embedId) : null,
    embed_url_static: embedId ? urls.embedStatic(embedId) : null,
    dimensions: r.dimensions,
    texture: { width: r.texture.width, height: r.texture.height },
  };
}

export function itemView(i: ShowcaseItemRow, urls: PublicUrls, storage: StoragePort) {
  const done = i.status === 'completed' && i.result;
  return {
    id: i.id,
    object: 'showcase_item' as const,
    showcase_id: i.showcase_id,
    job_id: i.job_id,
    status: i.status,
    progress: progressView(i.status, i.progress),
    source: i.source,
    ...(i.source === 'url' ? { source_url: i.source_url } : { filename: i.filename }),
    ...(done ? pictureResult(i.result as unknown as StillImageResult, i.embed_id, urls, storage) : {}),
    ...(i.status === 'failed' && i.error ? { error: { code: i.error.code, message: i.error.message } } : {}),
    created_at: new Date(i.created_at).toISOString(),
  };
}

export function showcaseView(s: ShowcaseRow, items: ShowcaseItemRow[], urls: PublicUrls, storage: StoragePort) {
  return {
    id: s.id,
    object: 'showcase' as const,
    url: urls.showcase(s.public_id),
    embed_url: urls.showcaseEmbed(s.public_id),
    layout_choice: s.layout,
    logo_url: s.logo_url,
    description: s.description,
    custom_links: s.custom_links,
    branding: s.branding,
    created_at: new Date(s.created_at).toISOString(),
    items: items.map((i) => itemView(i, urls, storage)),
  };
}

/** GET /api/v2/jobs/:id for a picture job. */
export function v2JobView(job: JobEntity, item: { id: number; showcase_id: number } | null, urls: PublicUrls, storage: StoragePort) {
  return {
    job_id: job.id,
    object: 'job' as const,
    kind: job.kind === 'v2.picture' ? 'showcase.picture' : job.kind,
    status: job.status,
    progress: progressView(job.status, job.progress),
    ...(item ? { showcase_id: item.showcase_id, item_id: item.id } : {}),
    ...(job.status === 'failed' && job.error ? { error: { code: job.error.code, message: job.error.message } } : {}),
    ...(job.status === 'completed' && job.result ? { result: pictureResult(job.result as StillImageResult, job.publicId, urls, storage) } : {}),
    created_at: job.createdAt.toISOString(),
    updated_at: job.updatedAt.toISOString(),
  };
}
