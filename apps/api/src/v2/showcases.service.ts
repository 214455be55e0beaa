import { Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type {} from '@fastify/multipart'; // request.parts()
import { type PricingPolicy, toCredits } from '@app/billing';
import type { AppConfig } from '@app/config';
import { type NewItem, randomId, ShowcaseRepository, type ShowcaseRow } from '@app/persistence';
import { APP_CONFIG, JobRoutes, PRICING_POLICY, PublicUrls, STORAGE } from '@app/runtime';
import type { StoragePort } from '@app/storage';
import { ApiError } from '../http/api-error';
import type { Principal } from '../http/api-key.guard';
import { JobAdmission } from '../jobs/job-admission.service';
import { IdempotencyService, requestFingerprint } from '../http/idempotency/idempotency.service';
import { storeUpload, type StoredUpload } from './picture-upload';
import { parseImageUrls, parseShowcaseRequest } from './showcase-request';
import { itemView, showcaseView } from './v2-views';

/** A positive integer path id (Postgres `integer`), else NaN so the lookup answers 404. */
function intId(v: string): number {
  const n = /^[1-9][0-9]{0,9}$/.test(v) ? Number(v) : NaN;
  return n <= 2_147_483_647 ? n : NaN;
}

/** v2 Pro Showcases: create, read, add pictures (URLs or uploads). Billing per spec §8. */
@Injectable()
export class ShowcasesService {
  constructor(
    private readonly showcases: ShowcaseRepository,
    private readonly urls: PublicUrls,
    private readonly routes: JobRoutes,
    private readonly idempotency: IdempotencyService,
    @Inject(PRICING_POLICY) private readonly pricing: PricingPolicy,
    private readonly admission: JobAdmission,
    @Inject(STORAGE) private readonly storage: StoragePort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private pictureCents(p: Principal): number {
    return p.keyType === 'owner' ? 0 : this.pricing.quote({ kind: 'showcase.picture', count: 1 }).totalCents;
  }

  private async enqueue(items: { id: number; jobId: string }[], activeBefore: number) {
    await this.admission.enqueue(items.map((i) => i.jobId), activeBefore);
    return items.map((i) => ({ job_id: i.jobId, item_id: i.id, status: 'queued' as const }));
  }

  async create(p: Principal, body: unknown) {
    const req = parseShowcaseRequest(body);
    if (req.imageUrls.length > this.config.showcases.maxItems) throw ApiError.invalid('image_urls', `image_urls: at most ${this.config.showcases.maxItems} pictures per showcase`);
    const owner = p.keyType === 'owner';
    const before = await this.admission.admit(p.userId, req.imageUrls.length);
    const created = await this.showcases.create(
      { ownerId: p.userId, layout: req.layout, logoUrl: req.logoUrl, description: req.description, customLinks: req.customLinks, branding: req.branding },
      req.imageUrls.map((u) => ({ source: 'url', sourceUrl: u })),
      { enforceSlots: !owner, showcaseCents: owner ? 0 : this.pricing.quote({ kind: 'showcase.create' }).totalCents, pictureCents: this.pictureCents(p) },
      { pipeline: this.routes.pipelineFor('v2.picture') },
    );
    return {
      id: created.showcase.id,
      url: this.urls.showcase(created.showcase.public_id),
      embed_url: this.urls.showcaseEmbed(created.showcase.public_id),
      queued_jobs: await this.enqueue(created.items, before),
      credits_charged: toCredits(created.chargedCents),
    };
  }

  private async owned(p: Principal, id: string): Promise<ShowcaseRow> {
    const n = intId(id);
    const s = Number.isNaN(n) ? null : await this.showcases.findForOwner(n, p.userId);
    if (!s) throw ApiError.notFound(`showcase ${id.slice(0, 40)}`);
    return s;
  }

  async get(p: Principal, id: string) {
    const s = await this.owned(p, id);
    return showcaseView(s, await this.showcases.items(s.id), this.urls, this.storage);
  }

  async item(p: Principal, id: string, itemId: string) {
    const s = await this.owned(p, id);
    const n = intId(itemId);
    const i = Number.isNaN(n) ? null : await this.showcases.item(s.id, n);
    if (!i) throw ApiError.notFound(`item ${itemId.slice(0, 40)}`);
    return itemView(i, this.urls, this.storage);
  }

  private async addItems(p: Principal, s: ShowcaseRow, items: NewItem[]) {
    const have = await this.showcases.countItems(s.id);
    if (have + items.length > this.config.showcases.maxItems) {
      throw ApiError.invalid(items[0].source === 'url' ? 'image_urls' : 'files', `a showcase holds at most ${this.config.showcases.maxItems} pictures (it has ${have})`, 'too_many_items');
    }
    const before = await this.admission.admit(p.userId, items.length);
    const created = await this.showcases.addItems(s, items, this.pictureCents(p), { pipeline: this.routes.pipelineFor('v2.picture'), maxItems: this.config.showcases.maxItems });
    return { showcase_id: s.id, queued_jobs: await this.enqueue(created.items, before), credits_charged: toCredits(created.chargedCents) };
  }

  /** JSON form: `{image_urls: [...]}`. Idempotency is applied by the route's interceptor. */
  async addUrls(p: Principal, id: string, body: unknown) {
    const s = await this.owned(p, id);
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ApiError(400, 'invalid_request_error', 'invalid_body', 'the body must be a JSON object {image_urls} or multipart/form-data with parts named "files"');
    const unknown = Object.keys(body).find((k) => k !== 'image_urls');
    if (unknown) throw ApiError.invalid(unknown, `${unknown}: unknown parameter`, 'parameter_unknown');
    const urls = parseImageUrls((body as { image_urls?: unknown }).image_urls, { required: true });
    return this.addItems(p, s, urls.map((u) => ({ source: 'url', sourceUrl: u })));
  }

  /**
   * Multipart form: one or more parts named `files`, each streamed to storage as it arrives. The
   * Idempotency-Key fingerprint is taken over the files' SHA-256s, so it is known only after the upload;
   * a replay deletes the duplicate uploads and answers with the first response.
   */
  async addUploads(p: Principal, id: string, req: FastifyRequest) {
    const s = await this.owned(p, id);
    const key = this.idempotency.parseKey(req.headers['idempotency-key']);
    const uploads: StoredUpload[] = [];
    const discard = () => Promise.all(uploads.map((u) => this.storage.delete(u.key).catch(() => undefined)));
    try {
      for await (const part of req.parts()) {
        if (part.type !== 'file') continue;
        if (part.fieldname !== 'files') {
          part.file.resume();
          throw ApiError.invalid(part.fieldname, `${part.fieldname.slice(0, 40)}: unknown file part; name file parts "files"`, 'parameter_unknown');
        }
        // Kept with the item; Postgres refuses NUL in text (the JSON bodies are checked globally, not these).
        if (part.filename.includes('\0')) {
          part.file.resume();
          throw ApiError.invalid('files', 'files: file names must not contain NUL (\\u0000) characters');
        }
        uploads.push(await storeUpload(this.storage, part.file, part.filename.slice(0, 255), `uploads/${s.public_id}/${randomId('upl')}`));
      }
    } catch (e) {
      await discard();
      throw mapMultipartError(e, this.config);
    }
    if (!uploads.length) throw ApiError.invalid('files', 'files: send at least one file part named "files"', 'parameter_missing');
    const fingerprint = requestFingerprint('POST', `/api/v2/showcases/:id/items ${s.id}`, { files: uploads.map((u) => u.sha256) });
    try {
      const out = await this.idempotency.run(p.userId, key, fingerprint, 202, () =>
        this.addItems(p, s, uploads.map((u) => ({ source: 'upload', uploadKey: u.key, filename: u.filename }))));
      if (out.replayed) await discard();
      return out;
    } catch (e) {
      await discard();
      throw e;
    }
  }
}

/** @fastify/multipart's limit errors -> 413 with the documented caps. */
function mapMultipartError(e: unknown, config: AppConfig): unknown {
  const code = (e as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') {
    return new ApiError(413, 'payload_too_large', 'file_too_large', `files: each file may be at most ${config.showcases.maxFileBytes} bytes`, 'files');
  }
  if (code === 'FST_FILES_LIMIT') {
    return new ApiError(413, 'payload_too_large', 'too_many_files', `files: at most ${config.showcases.maxFilesPerRequest} files per request`, 'files');
  }
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
    return new ApiError(413, 'payload_too_large', 'too_many_parts', 'too many form parts', 'files');
  }
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE' || code === 'FST_PROTO_VIOLATION') {
    return new ApiError(400, 'invalid_request_error', 'invalid_multipart', 'the multipart body could not be read');
  }
  // Busboy's parse errors have no code, only these messages; anything else (a storage failure) stays a 5xx.
  const message = e instanceof Error ? e.message : '';
  if (code === 'FST_MP_PREMATURE_CLOSE' || /unexpected end of multipart data/i.test(message)) {
    return new ApiError(400, 'invalid_request_error', 'invalid_multipart', 'the multipart body ended before its closing boundary (a truncated upload?); nothing was stored or charged');
  }
  if (/boundary not found/i.test(message)) {
    return new ApiError(400, 'invalid_request_error', 'invalid_multipart', 'the multipart/form-data Content-Type has no boundary parameter');
  }
  return e;
}
