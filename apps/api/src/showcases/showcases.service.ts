import { Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { MultipartValue } from '@fastify/multipart'; // also request.parts()
import { type PricingPolicy, toCredits } from '@app/billing';
import type { AppConfig } from '@app/config';
import {
  AccountRepository,
  DataDeletionRepository,
  type DeletableJob,
  InsufficientCreditsError,
  type ItemCatalogue,
  type NewItem,
  randomId,
  ShowcaseItemRepository,
  ShowcaseRepository,
  ShowcaseWallRepository,
  type ShowcaseItemRow,
  type ShowcaseRow,
  type StoredVariant,
  variantJobIds,
} from '@app/persistence';
import { isFinal, type JobStatus } from '@app/pipeline';
import { APP_CONFIG, JobDeletion, JobRoutes, PRICING_POLICY, STORAGE } from '@app/runtime';
import { PublicUrls } from '@app/wire';
import type { StoragePort } from '@app/storage';
import { ApiError } from '../http/api-error';
import type { Principal } from '../http/api-key.guard';
import { JobAdmission } from '../jobs/job-admission.service';
import { IdempotencyService, requestFingerprint } from '../http/idempotency/idempotency.service';
import { assertSafeValues } from '../http/request-values';
import type { PresentationInput } from './item/presentation-request';
import { storeUpload, type StoredUpload } from './picture-upload';
import { AddItemsBody, itemArray, parsePictures, parseShowcasePatch, parseShowcaseRequest, ShowcaseListQuery } from './showcases.schema';
import { assertDistinctExternalIds, parseItem, type PictureRequest } from './item/item-request';
import { parseInput } from '@app/schema';
import { encodeCursor, PG_INT_MAX } from '../http/list-query';
import { multipartError } from '../http/multipart-error';
import { itemView, showcaseSummaryView, showcaseView } from './showcase-views';

/** A positive integer path id (Postgres `integer`), else NaN so the lookup answers 404. */
export function intId(v: string): number {
  const n = /^[1-9][0-9]{0,9}$/.test(v) ? Number(v) : NaN;
  return n <= PG_INT_MAX ? n : NaN;
}

/** The caller's showcase `id` (a path parameter), else ApiError 404 (also for another account's). */
export async function ownedShowcase(showcases: ShowcaseRepository, p: Principal, id: string): Promise<ShowcaseRow> {
  const n = intId(id);
  const s = Number.isNaN(n) ? null : await showcases.findForOwner(n, p.userId);
  if (!s) throw ApiError.notFound(`showcase ${id.slice(0, 40)}`);
  return s;
}

/** What one picture costs the caller, in cents (the owner key: nothing). */
export function pictureCents(pricing: PricingPolicy, p: Principal): number {
  return p.keyType === 'owner' ? 0 : pricing.quote({ kind: 'showcase.picture', count: 1 }).totalCents;
}

/**
 * Deletes finished jobs an owner asked to delete (pictures, walls): files first, then rows with tombstones
 * (JobDeletion). A file that cannot be deleted keeps its row: ApiError 503 `storage_unavailable`, safe to repeat.
 */
export async function deleteOwnedJobs(deletions: DataDeletionRepository, jobDeletion: JobDeletion, ids: readonly string[]): Promise<void> {
  const jobs = (await Promise.all(ids.map((j) => deletions.job(j)))).filter((j): j is DeletableJob => j !== null);
  const deleted = await jobDeletion.deleteFinished(jobs, 'owner');
  if (deleted.length < jobs.length)
    throw new ApiError(
      503,
      'api_error',
      'storage_unavailable',
      'some files could not be deleted now; nothing else was removed for them, try again',
    );
}

/** v2 Pro Showcases: create, read, add pictures (URLs or uploads). Prices: docs/api.md, Prices. */
@Injectable()
export class ShowcasesService {
  constructor(
    private readonly showcases: ShowcaseRepository,
    private readonly showcaseItems: ShowcaseItemRepository,
    private readonly urls: PublicUrls,
    private readonly routes: JobRoutes,
    private readonly idempotency: IdempotencyService,
    @Inject(PRICING_POLICY) private readonly pricing: PricingPolicy,
    private readonly admission: JobAdmission,
    @Inject(STORAGE) private readonly storage: StoragePort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly accounts: AccountRepository,
    private readonly deletions: DataDeletionRepository,
    private readonly jobDeletion: JobDeletion,
    private readonly walls: ShowcaseWallRepository,
  ) {}

  private pictureCents(p: Principal): number {
    return pictureCents(this.pricing, p);
  }

  private async enqueue(ownerId: string, items: { id: number; jobId: string }[], activeBefore: number) {
    await this.admission.enqueue(
      ownerId,
      items.map((i) => i.jobId),
      activeBefore,
    );
    return items.map((i) => ({ job_id: i.jobId, item_id: i.id, status: 'queued' as const }));
  }

  async create(p: Principal, body: unknown) {
    const req = parseShowcaseRequest(body);
    if (req.pictures.length > this.config.showcases.maxItems) {
      const param = picturesParam(body);
      throw ApiError.invalid(param, `${param}: at most ${this.config.showcases.maxItems} pictures per showcase`);
    }
    const owner = p.keyType === 'owner';
    const before = await this.admission.admit(p.userId, req.pictures.length);
    const created = await this.showcases.create(
      {
        ownerId: p.userId,
        layout: req.layout,
        logoUrl: req.logoUrl,
        description: req.description,
        customLinks: req.customLinks,
        branding: req.branding,
        indexable: req.indexable,
        analytics: req.analytics,
        units: req.units,
        locale: req.locale,
        presentationDefaults: req.defaults,
      },
      urlItems(req.pictures),
      {
        enforceSlots: !owner,
        showcaseCents: owner ? 0 : this.pricing.quote({ kind: 'showcase.create' }).totalCents,
        pictureCents: this.pictureCents(p),
      },
      { pipeline: this.routes.pipelineFor('showcase.picture') },
    );
    return {
      id: created.showcase.id,
      url: this.urls.showcase(created.showcase.publicId),
      embed_url: this.urls.showcaseEmbed(created.showcase.publicId),
      queued_jobs: await this.enqueue(p.userId, created.items, before),
      credits_charged: toCredits(created.chargedCents),
    };
  }

  private owned(p: Principal, id: string): Promise<ShowcaseRow> {
    return ownedShowcase(this.showcases, p, id);
  }

  async get(p: Principal, id: string) {
    const s = await this.owned(p, id);
    return showcaseView(s, await this.showcaseItems.items(s.id), this.urls, this.storage);
  }

  /** The caller's showcases, newest first, cursor-paginated. */
  async list(p: Principal, query: unknown) {
    const { limit, cursor: after } = parseInput(ShowcaseListQuery, query ?? {});
    const rows = await this.showcases.listForOwner(p.userId, limit + 1, after ? Number(after[0]) : undefined);
    const page = rows.slice(0, limit);
    return {
      data: page.map((s) => showcaseSummaryView(s, s.itemCount, this.urls)),
      has_more: rows.length > limit,
      next_cursor: rows.length > limit ? encodeCursor([String(page[page.length - 1].id)]) : null,
    };
  }

  /** Changes any create field but the pictures (see parseShowcasePatch); free, and the public pages show it at once. */
  async update(p: Principal, id: string, body: unknown) {
    const s = await this.owned(p, id);
    const f = parseShowcasePatch(body, s);
    const updated = await this.showcases.update(s.id, {
      layout: f.layout,
      logoUrl: f.logoUrl,
      description: f.description,
      customLinks: f.customLinks,
      branding: f.branding,
      presentationDefaults: f.defaults,
      indexable: f.indexable,
      analytics: f.analytics,
      units: f.units,
      locale: f.locale,
    });
    if (!updated) throw ApiError.notFound(`showcase ${id.slice(0, 40)}`);
    return showcaseView(updated, await this.showcaseItems.items(s.id), this.urls, this.storage);
  }

  /**
   * Deletes a showcase with its pictures' and gallery walls' jobs and files (models, posters, uploads); its public pages then
   * answer 404 and its pictures' embed pages 410, and its slot is free again. Nothing is refunded: the work
   * was done. While a picture is still converting → 409 (its worker would write files after we deleted them).
   */
  async remove(p: Principal, id: string): Promise<void> {
    const s = await this.owned(p, id);
    const items = await this.showcaseItems.items(s.id);
    const walls = await this.walls.list(s.id);
    this.assertFinished([...items, ...walls].map((i) => ({ jobId: i.jobId, status: i.status })));
    await this.assertNoRebuild(items);
    await this.deleteVisitorWalls({ showcaseId: s.id });
    await this.deleteJobs([...items.flatMap(itemJobIds), ...walls.map((w) => w.jobId)]);
    const out = await this.showcases.deleteIfEmpty(s.id);
    // A picture added while we deleted: the showcase stays, with that picture (the caller may repeat).
    if (out === 'not_empty')
      throw new ApiError(
        409,
        'conflict',
        'showcase_changed',
        `showcase ${s.id} got new pictures while it was being deleted; try again once they finish`,
      );
  }

  /** Deletes one picture with its job and files (no refund: it was converted or already refunded when it failed). */
  async removeItem(p: Principal, id: string, itemId: string): Promise<void> {
    const s = await this.owned(p, id);
    const n = intId(itemId);
    const i = Number.isNaN(n) ? null : await this.showcaseItems.item(s.id, n);
    if (!i) throw ApiError.notFound(`item ${itemId.slice(0, 40)}`);
    this.assertFinished([{ jobId: i.jobId, status: i.status }]);
    await this.assertNoRebuild([i]);
    // Visitors' walls showing it go with it (saved walls keep their files: the owner made them).
    await this.deleteVisitorWalls({ showcaseId: s.id, itemId: i.id });
    await this.deleteJobs(itemJobIds(i));
  }

  /** A rebuild of an item's files still running: 409 as for a picture still converting (it would write files after we deleted them). */
  private async assertNoRebuild(items: ShowcaseItemRow[]): Promise<void> {
    const pending = items.flatMap((i) => [
      ...(i.pendingJobId ? [i.pendingJobId] : []),
      ...(i.storedVariants ?? []).flatMap((v) => (v.pending_job_id ? [v.pending_job_id] : [])),
    ]);
    const jobs = await Promise.all(pending.map((id) => this.deletions.job(id)));
    this.assertFinished(jobs.filter((j) => j !== null).map((j) => ({ jobId: j.id, status: j.status })));
  }

  private assertFinished(jobs: { jobId: string; status: string }[]): void {
    const busy = jobs.filter((j) => !isFinal(j.status as JobStatus));
    if (busy.length) {
      throw new ApiError(
        409,
        'conflict',
        'job_not_finished',
        `${busy.length} picture(s) still converting (e.g. job ${busy[0].jobId}): wait for them to finish or cancel them (POST /api/v2/jobs/{id}/cancel), then delete`,
      );
    }
  }

  private async deleteVisitorWalls(scope: { showcaseId: number; itemId?: number }): Promise<void> {
    await this.jobDeletion.deleteVisitorWalls(scope).catch(() => {
      throw new ApiError(
        503,
        'api_error',
        'storage_unavailable',
        "visitors' walls could not be deleted now; nothing else was removed, try again",
      );
    });
  }

  private deleteJobs(ids: string[]): Promise<void> {
    return deleteOwnedJobs(this.deletions, this.jobDeletion, ids);
  }

  async item(p: Principal, id: string, itemId: string) {
    const s = await this.owned(p, id);
    const n = intId(itemId);
    const i = Number.isNaN(n) ? null : await this.showcaseItems.item(s.id, n);
    if (!i) throw ApiError.notFound(`item ${itemId.slice(0, 40)}`);
    return itemView(i, this.urls, this.storage);
  }

  private async addItems(p: Principal, s: ShowcaseRow, items: NewItem[], param = items[0].source === 'url' ? 'image_urls' : 'files') {
    this.assertRoom(await this.showcaseItems.countItems(s.id), items.length, param);
    const before = await this.admission.admit(p.userId, items.length);
    const created = await this.showcaseItems.addItems(s, items, this.pictureCents(p), {
      pipeline: this.routes.pipelineFor('showcase.picture'),
      maxItems: this.config.showcases.maxItems,
    });
    return {
      showcase_id: s.id,
      queued_jobs: await this.enqueue(p.userId, created.items, before),
      credits_charged: toCredits(created.chargedCents),
    };
  }

  /**
   * JSON form: `{image_urls?: [...], items?: [{image_url, title, frame, ...}]}`, each picture's presentation
   * merged over the showcase's defaults. Idempotency is applied by the route's interceptor.
   */
  async addUrls(p: Principal, id: string, body: unknown) {
    const s = await this.owned(p, id);
    parseInput(AddItemsBody, body);
    const pictures = parsePictures(body as Record<string, unknown>, s.presentationDefaults, { required: true });
    return this.addItems(p, s, urlItems(pictures), picturesParam(body));
  }

  /** 400 `too_many_items` when `n` more pictures do not fit (a fast refusal; the locked count in the repository decides). */
  private assertRoom(have: number, n: number, param: string): void {
    const max = this.config.showcases.maxItems;
    if (have + n > max) throw ApiError.invalid(param, `a showcase holds at most ${max} pictures (it has ${have})`, 'too_many_items');
  }

  /**
   * Before storing upload number `n` (1-based): the showcase must have room for n more pictures and a
   * billed key's balance must cover n of them, so a request that cannot be charged is refused before
   * its bytes are written (402 / 400 too_many_items). A hint only: the transactional charge and the
   * locked item count in {@link ShowcaseItemRepository.addItems} stay the authority.
   */
  private async admitUpload(p: Principal, have: number, n: number): Promise<void> {
    this.assertRoom(have, n, 'files');
    const needed = n * this.pictureCents(p);
    if (needed === 0) return;
    const balance = (await this.accounts.findUser(p.userId))?.creditsCents ?? 0;
    if (balance < needed) throw new InsufficientCreditsError(balance, needed);
  }

  /**
   * Multipart form: one or more parts named `files`, each streamed to storage as it arrives, once the
   * balance and the showcase's room cover it ({@link admitUpload}). The Idempotency-Key fingerprint is
   * taken over the files' SHA-256s, so it is known only after the upload; a replay deletes the duplicate
   * uploads and answers with the first response.
   */
  async addUploads(p: Principal, id: string, req: FastifyRequest) {
    const s = await this.owned(p, id);
    const key = this.idempotency.parseKey(req.headers['idempotency-key']);
    // A retry of an answered request gets its first answer whatever the balance or the item count is now.
    const replay = await this.idempotency.answered(p.userId, key);
    const have = replay ? 0 : await this.showcaseItems.countItems(s.id);
    if (!replay) await this.admitUpload(p, have, 1);
    const uploads: StoredUpload[] = [];
    // The `items` text field: one entry per file part, in order (validated before any file is stored).
    let items: UploadItems | undefined;
    const discard = () => Promise.all(uploads.map((u) => this.storage.delete(u.key).catch(() => undefined)));
    try {
      for await (const part of req.parts()) {
        if (part.type !== 'file') {
          if (part.fieldname === 'items')
            items = uploadItems(
              part,
              { filesBefore: uploads.length, again: items !== undefined, maxFiles: this.config.showcases.maxFilesPerRequest },
              s.presentationDefaults,
            );
          continue;
        }
        if (part.fieldname === 'items') {
          part.file.resume();
          throw ApiError.invalid('items', 'items: send it as a text field holding a JSON array, not as a file');
        }
        if (part.fieldname !== 'files') {
          part.file.resume();
          throw ApiError.invalid(
            part.fieldname,
            `${part.fieldname.slice(0, 40)}: unknown file part; name file parts "files"`,
            'parameter_unknown',
          );
        }
        // Kept with the item; Postgres refuses NUL in text (the JSON bodies are checked globally, not these).
        if (part.filename.includes('\0')) {
          part.file.resume();
          throw ApiError.invalid('files', 'files: file names must not contain NUL (\\u0000) characters');
        }
        if (!replay && uploads.length) {
          await this.admitUpload(p, have, uploads.length + 1).catch((e: unknown) => {
            part.file.resume();
            throw e;
          });
        }
        if (items && uploads.length >= items.presentations.length) {
          part.file.resume();
          throw ApiError.invalid(
            'items',
            `items: has ${items.presentations.length} entries, one per file part, but file part ${uploads.length + 1} has none`,
          );
        }
        uploads.push(await storeUpload(this.storage, part.file, part.filename.slice(0, 255), `uploads/${s.publicId}/${randomId('upl')}`));
      }
      if (items && uploads.length && items.presentations.length !== uploads.length) {
        throw ApiError.invalid(
          'items',
          `items: has ${items.presentations.length} entries for ${uploads.length} file parts; send one entry per file part, in order`,
        );
      }
    } catch (e) {
      await discard();
      throw multipartError(e, this.config.showcases);
    }
    if (!uploads.length) throw ApiError.invalid('files', 'files: send at least one file part named "files"', 'parameter_missing');
    const fingerprint = requestFingerprint('POST', `/api/v2/showcases/:id/items ${s.id}`, {
      files: uploads.map((u) => u.sha256),
      ...(items ? { items: items.raw } : {}),
    });
    try {
      const out = await this.idempotency.run(p.userId, key, fingerprint, 202, () =>
        this.addItems(
          p,
          s,
          uploads.map((u, i) => ({
            source: 'upload',
            uploadKey: u.key,
            filename: u.filename,
            presentation: items?.presentations[i] ?? { ...s.presentationDefaults },
            catalogue: items?.catalogues[i],
            variants: items?.variants[i],
          })),
        ),
      );
      if (out.replayed) await discard();
      return out;
    } catch (e) {
      await discard();
      throw e;
    }
  }
}

/** An upload's `items` field, parsed: per file part, its presentation (job input) and catalogue fields. */
interface UploadItems {
  raw: unknown[];
  presentations: PresentationInput[];
  catalogues: Partial<ItemCatalogue>[];
  variants: (StoredVariant[] | undefined)[];
}

/** Every job an item's files come from: its own, a pending rebuild, and its variants' builds (deleted with it). */
function itemJobIds(i: ShowcaseItemRow): string[] {
  return [i.jobId, ...(i.pendingJobId ? [i.pendingJobId] : []), ...variantJobIds(i.storedVariants, i.jobId)];
}

/** Pictures given by URL, as items whose job input carries their presentation fields. */
function urlItems(pictures: PictureRequest[]): NewItem[] {
  return pictures.map((pic) => ({
    source: 'url',
    sourceUrl: pic.imageUrl,
    presentation: pic.presentation,
    catalogue: pic.catalogue,
    variants: pic.variants,
  }));
}

/** The parameter a refusal of a JSON body's pictures as a whole names: `items` when it has some. */
function picturesParam(body: unknown): string {
  const items = (body as { items?: unknown } | null)?.items;
  return Array.isArray(items) && items.length ? 'items' : 'image_urls';
}

/**
 * An upload's `items` text field: a JSON array, one entry per file part in order (null or {} for the
 * showcase's defaults), each with the presentation fields of a JSON item but no image_url. Sent before the
 * file parts, so a bad value is refused before any file is stored. Errors name `items[i].field`.
 */
function uploadItems(
  part: MultipartValue,
  at: { filesBefore: number; again: boolean; maxFiles: number },
  defaults: PresentationInput,
): UploadItems {
  if (at.again) throw ApiError.invalid('items', 'items: send one items field (a JSON array with one entry per file part)');
  if (at.filesBefore) throw ApiError.invalid('items', 'items: send the items field before the file parts it describes');
  if (part.valueTruncated) throw new ApiError(413, 'payload_too_large', 'field_too_large', 'items: the field is too long', 'items');
  let v = part.value;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      throw ApiError.invalid(
        'items',
        'items: must be a JSON array with one entry per file part, e.g. [{"title": "Dunes", "frame": "classic"}]',
      );
    }
  }
  assertSafeValues(v, 'items');
  const raw = itemArray(v);
  if (!raw) throw ApiError.invalid('items', 'items: must be a JSON array with one entry per file part');
  if (raw.length > at.maxFiles) throw ApiError.invalid('items', `items: at most ${at.maxFiles} entries (files per request)`);
  const parsed = raw.map((entry, i) => parseItem(entry, i, defaults, { withUrl: false }));
  assertDistinctExternalIds(parsed.map((p) => p.catalogue));
  return {
    raw,
    presentations: parsed.map((p) => p.presentation),
    catalogues: parsed.map((p) => p.catalogue),
    variants: parsed.map((p) => p.variants),
  };
}
