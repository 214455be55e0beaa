import { Inject, Injectable } from '@nestjs/common';
import {
  type ItemChanges,
  ItemEditRepository,
  JobRepository,
  ShowcaseItemRepository,
  ShowcaseRepository,
  type ShowcaseItemRow,
  type ShowcaseRow,
} from '@app/persistence';
import { isFinal, type JobStatus } from '@app/pipeline';
import { parseInput } from '@app/schema';
import { type PictureFields, REBUILD_INPUT, type RebuildJobInput, type VariantsJobInput } from '@app/plugins';
import { JobRoutes, STORAGE } from '@app/runtime';
import type { StoragePort } from '@app/storage';
import { PublicUrls } from '@app/wire';
import { ApiError } from '../http/api-error';
import type { Principal } from '../http/api-key.guard';
import { JobAdmission } from '../jobs/job-admission.service';
import { intId, ownedShowcase } from './showcases.service';
import { bannerOfInput, parseItemEdit, REBUILD_FIELDS, renditionKey, ReorderItemsBody, sameJson } from './item/item-edit.schema';
import { parseVariantEdit, variantsToBuild } from './item/variant-requests';
import { itemView } from './showcase-views';

/** How many times an edit is made again when the item switched to a finished rebuild while it was made. */
const ATTEMPTS = 3;

/**
 * Editing showcase items in place: PATCH of one item, the items' order, and the updates of a catalogue
 * re-import (by external_id), all through {@link apply}.
 *
 * Label, external_id, availability, position and banner are stored on the item row at once, free. Size
 * and presentation (width/height, depth, fit, frame, mat, finish, placement, allow_scaling) rebuild the
 * files from the item's stored texture (the picture inside its GLB, never its source again), free: a new
 * picture job whose input names the GLB as its `upload_key`, recorded as the item's pending_job_id. The
 * item keeps serving its files until that job completes; the job listener ItemRebuilds (libs/runtime) then
 * switches it in one UPDATE, moving the item's embed id to the new job, and deletes the replaced job.
 */
@Injectable()
export class ItemEdits {
  constructor(
    private readonly showcases: ShowcaseRepository,
    private readonly showcaseItems: ShowcaseItemRepository,
    private readonly itemEdits: ItemEditRepository,
    private readonly jobs: JobRepository,
    private readonly routes: JobRoutes,
    private readonly admission: JobAdmission,
    private readonly urls: PublicUrls,
    @Inject(STORAGE) private readonly storage: StoragePort,
  ) {}

  /**
   * Validates `patch` (the PATCH item body: every field of a JSON item but image_url; errors name `prefix` +
   * the field, e.g. `items[3].frame`) and applies it to `item`. `changed`: whether anything is different
   * now (an edit that sets what the item has is unchanged); `rebuildJobId`: the job rebuilding its files.
   *
   * Throws: UserError (400) for an invalid field; ExternalIdTakenError (409 external_id_taken, param
   * `prefix` + external_id); ApiError 409 `item_not_ready` / `item_failed` when the size or presentation
   * changes and the item has no converted files yet / its conversion failed; ApiError 429 when the owner is
   * at ACCOUNT_MAX_ACTIVE_JOBS and a rebuild is needed (nothing is changed then).
   */
  async apply(
    ownerId: string,
    showcase: ShowcaseRow,
    item: ShowcaseItemRow,
    patch: unknown,
    opts: { prefix?: string } = {},
  ): Promise<{ changed: boolean; rebuildJobId: string | null }> {
    const prefix = opts.prefix ?? '';
    for (let attempt = 1; ; attempt++) {
      const out = await this.applyTo(ownerId, showcase, item, patch, prefix);
      if (out) return out;
      // The item switched to a finished rebuild (or went) while the edit was made: nothing was written.
      const fresh = await this.showcaseItems.item(showcase.id, item.id);
      if (!fresh) throw ApiError.notFound(`item ${item.id}`);
      if (attempt >= ATTEMPTS)
        throw new ApiError(409, 'conflict', 'item_changed', `item ${item.id} changed while it was being edited; send the edit again`);
      item = fresh;
    }
  }

  /**
   * Whether {@link apply} would change `item` (the same validation, merge and comparisons), writing nothing:
   * a catalogue import's dry run tells updated from unchanged rows with it. Throws the same 400s as apply.
   */
  async preview(item: ShowcaseItemRow, patch: unknown, opts: { prefix?: string } = {}): Promise<{ changed: boolean }> {
    const planned = await this.plan(item, patch, opts.prefix ?? '');
    return { changed: !planned || planned.diff.changed };
  }

  /** The item's files and the edit compared with them; null when the item has no files job any more. */
  private async plan(item: ShowcaseItemRow, patch: unknown, prefix: string) {
    const files = await this.jobs.find(item.jobId);
    if (!files) return null;
    const pending = item.pendingJobId ? await this.jobs.find(item.pendingJobId) : null;
    const latestInput = pending?.input ?? files.input;
    const banner = item.banner ?? bannerOfInput(files.input);
    const edit = parseItemEdit(patch, { label: item.label, banner, latestInput }, prefix);
    const variants = this.planVariants(item, patch as Record<string, unknown>, latestInput, prefix);
    const c = edit.catalogue;
    const diff = {
      label: c.label !== undefined && !sameJson(c.label, item.label),
      externalId: c.externalId !== undefined && c.externalId !== item.externalId,
      availability: c.availability !== undefined && c.availability !== item.availability,
      position: c.position !== undefined && c.position !== item.position,
      banner: edit.banner !== undefined && !sameJson(edit.banner, banner),
      presentation: edit.presentation !== undefined && renditionKey(edit.presentation) !== renditionKey(latestInput),
      variants: variants !== undefined && !sameJson(variants.next, item.storedVariants?.length ? item.storedVariants : null),
      changed: false,
    };
    diff.changed = Object.values(diff).some(Boolean);
    return { files, pending, edit, diff, variants };
  }

  /**
   * The variants an edit leaves the item with (undefined: it sends none) and those whose files must be built.
   * An item with variants takes its size and look per variant: those fields at the item's level are a 400.
   */
  private planVariants(item: ShowcaseItemRow, patch: Record<string, unknown>, base: Record<string, unknown>, prefix: string) {
    const dotted = prefix && !prefix.endsWith('.') ? `${prefix}.` : prefix;
    const next = parseVariantEdit(patch, item.storedVariants, base, dotted);
    const hasVariants = next === undefined ? !!item.storedVariants?.length : !!next?.length;
    const itemLevel = REBUILD_FIELDS.find((k) => Object.prototype.hasOwnProperty.call(patch, k));
    if (hasVariants && itemLevel)
      throw ApiError.invalid(
        `${dotted}${itemLevel}`,
        `${dotted}${itemLevel}: item ${item.id} has variants, each with its own size and frame; change it per variant (variant_updates: [{sku, ${itemLevel}}])`,
        'item_has_variants',
      );
    if (next === undefined) return undefined;
    return { next, build: next ? variantsToBuild(next, item.storedVariants) : [] };
  }

  /** One try of {@link apply}; null when the item no longer serves the files it was read with. */
  private async applyTo(
    ownerId: string,
    showcase: ShowcaseRow,
    item: ShowcaseItemRow,
    patch: unknown,
    prefix: string,
  ): Promise<{ changed: boolean; rebuildJobId: string | null } | null> {
    const planned = await this.plan(item, patch, prefix);
    if (!planned) return null;
    const { files, pending, edit, diff, variants } = planned;
    const changes: ItemChanges = {};
    const c = edit.catalogue;
    if (diff.label) changes.label = c.label;
    if (diff.externalId) changes.externalId = c.externalId;
    if (diff.availability) changes.availability = c.availability;
    if (diff.position) changes.position = c.position;
    if (diff.banner) changes.banner = edit.banner;
    if (diff.presentation) {
      // Back to what the files already are: the pending rebuild is dropped (it may finish; it will not switch).
      if (pending && renditionKey(edit.presentation!) === renditionKey(files.input)) changes.dropPending = true;
      else
        changes.rebuild = {
          input: this.rebuildInput(showcase, item, files, edit.presentation!),
          pipeline: this.routes.pipelineFor('showcase.picture'),
        };
    }
    if (diff.variants && variants) {
      changes.variants = {
        next: variants.next,
        expected: item.storedVariants?.length ? item.storedVariants : null,
        build: variants.build.length
          ? {
              input: this.variantBuildInput(showcase, item, files, variants.build),
              pipeline: this.routes.pipelineFor('showcase.variants'),
              ids: variants.build.map((v) => v.id),
            }
          : undefined,
      };
    }
    if (!diff.changed) return { changed: false, rebuildJobId: null };

    const jobs = (changes.rebuild ? 1 : 0) + (changes.variants?.build ? 1 : 0);
    const before = jobs ? await this.admission.admit(ownerId, jobs) : 0;
    const dotted = prefix && !prefix.endsWith('.') ? `${prefix}.` : prefix;
    const out = await this.itemEdits.editItem(item, ownerId, changes, `${dotted}external_id`);
    if (!out) return null;
    const started = [out.rebuildJobId, out.variantBuildJobId].filter((j): j is string => typeof j === 'string');
    if (started.length) await this.admission.enqueue(ownerId, started, before);
    return { changed: true, rebuildJobId: out.rebuildJobId ?? out.variantBuildJobId ?? null };
  }

  /**
   * The input of a variant build (VariantsJobInput): the item's texture (its own job's GLB, as for a rebuild) and
   * the specs of the variants to build; the repository adds `variant_build` as it writes the job. The item must
   * have converted files.
   */
  private variantBuildInput(
    showcase: ShowcaseRow,
    item: ShowcaseItemRow,
    files: { status: JobStatus; result: Record<string, unknown> | null },
    build: { id: string; spec: Record<string, unknown> }[],
  ): Pick<VariantsJobInput, 'upload_key' | 'variants' | 'showcase_id'> {
    const { upload_key } = this.rebuildInput(showcase, item, files, {});
    return { upload_key, variants: build.map((v) => ({ id: v.id, ...v.spec })), showcase_id: showcase.id };
  }

  /**
   * The input of a rebuild (RebuildJobInput): the item's texture (its GLB, read back by the fetch stage as an upload, so the
   * source is neither fetched nor decoded again) with the merged presentation and size.
   */
  private rebuildInput(
    showcase: ShowcaseRow,
    item: ShowcaseItemRow,
    files: { status: JobStatus; result: Record<string, unknown> | null },
    presentation: PictureFields,
  ): RebuildJobInput {
    const glb = (files.result?.files as { glb?: { key?: unknown } } | undefined)?.glb?.key;
    if (files.status === 'failed')
      throw new ApiError(
        409,
        'conflict',
        'item_failed',
        `item ${item.id}'s conversion failed, so it has no files to rebuild; delete it and add the picture again`,
      );
    if (!isFinal(files.status) || typeof glb !== 'string')
      throw new ApiError(
        409,
        'conflict',
        'item_not_ready',
        `item ${item.id} is still converting; change its size or presentation once it has completed (its label, banner, availability and position can be changed now)`,
      );
    return { upload_key: glb, ...presentation, showcase_id: showcase.id, [REBUILD_INPUT]: { item_id: item.id, from_job: item.jobId } };
  }

  private owned(p: Principal, id: string): Promise<ShowcaseRow> {
    return ownedShowcase(this.showcases, p, id);
  }

  /**
   * PATCH /api/v2/showcases/{id}/items/{item_id}: 200 with the item when only fields that need no rebuild
   * changed (or nothing did), 202 `{item, rebuild_job_id}` when its files are being rebuilt.
   */
  async update(p: Principal, id: string, itemId: string, body: unknown) {
    const s = await this.owned(p, id);
    const n = intId(itemId);
    const item = Number.isNaN(n) ? null : await this.showcaseItems.item(s.id, n);
    if (!item) throw ApiError.notFound(`item ${itemId.slice(0, 40)}`);
    const out = await this.apply(p.userId, s, item, body);
    const now = await this.showcaseItems.item(s.id, item.id);
    if (!now) throw ApiError.notFound(`item ${itemId.slice(0, 40)}`);
    const view = itemView(now, this.urls, this.storage);
    return out.rebuildJobId
      ? { status: 202 as const, body: { item: view, rebuild_job_id: out.rebuildJobId } }
      : { status: 200 as const, body: view };
  }

  /** PUT /api/v2/showcases/{id}/items/order: positions 0..n-1 for the listed items; the showcase's items in their new order. */
  async reorder(p: Principal, id: string, body: unknown) {
    const s = await this.owned(p, id);
    const ids = parseInput(ReorderItemsBody, body).item_ids;
    const { unknownAt } = await this.showcaseItems.reorderItems(s.id, ids);
    if (unknownAt !== null) {
      const param = `item_ids[${unknownAt}]`;
      throw ApiError.invalid(param, `${param}: showcase ${s.id} has no item ${ids[unknownAt]}`);
    }
    return { showcase_id: s.id, items: (await this.showcaseItems.items(s.id)).map((i) => itemView(i, this.urls, this.storage)) };
  }
}
