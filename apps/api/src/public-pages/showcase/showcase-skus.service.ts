import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { describeAvailability, type AvailabilityKind } from '@app/catalogue';
import { defaultVariant, type ItemVariant, ShowcaseItemRepository, type ShowcaseItemRow } from '@app/persistence';
import type { StillImageResult } from '@app/plugins';
import { STORAGE } from '@app/runtime';
import { parseInput, z } from '@app/schema';
import type { StoragePort } from '@app/storage';
import { dimensionsCm, PublicUrls } from '@app/wire';
import { ApiError } from '../../http/api-error';
import { TtlCache } from '../../http/ttl-cache';
import { variantAvailability, variantResult } from './page-variants';

/** At most this many SKUs a request: a product page asks for its own few, a theme's collection page for a page of them. */
export const SKU_LOOKUP_MAX = 100;
/** The longest SKU the lookup takes: the longest that can match (an item's external_id; a variant's sku is at most 64). */
export const SKU_MAX_LENGTH = 100;

const sku = z
  .string()
  .min(1, { error: () => 'must not be empty' })
  .max(SKU_MAX_LENGTH, { error: () => `at most ${SKU_MAX_LENGTH} characters` });

/** `?sku=A&sku=B` (repeated; one arrives as a string). Each SKU as the shop wrote it: matched exactly, not trimmed. */
export const SkuLookupQuery = z.object({
  sku: z
    .preprocess(
      (v) => (typeof v === 'string' ? [v] : v),
      z
        .array(sku, { error: () => `at least one SKU (?sku=A&sku=B), at most ${SKU_LOOKUP_MAX}` })
        .min(1, { error: () => 'at least one SKU (?sku=A&sku=B)' })
        .max(SKU_LOOKUP_MAX, { error: () => `at most ${SKU_LOOKUP_MAX} SKUs a request` }),
    )
    .describe(`The SKUs to look up, repeated (\`?sku=A&sku=B\`), 1 to ${SKU_LOOKUP_MAX}, each at most ${SKU_MAX_LENGTH} characters.`),
});

/** What a shop's page needs to show one SKU: its item, files, size, and the commerce fields. */
export interface SkuMatch {
  item_id: number;
  sku: string;
  /** The item's embed page, selecting the variant (`?variant=`) when the SKU is one. */
  embed_url: string;
  glb_url: string;
  usdz_url: string;
  poster_url: string;
  dimensions: { width_inches: number; height_inches: number };
  dimensions_cm: { width_cm: number; height_cm: number };
  availability: AvailabilityKind;
  /** The price as the shop wrote it; null: none. */
  price: string | null;
}

/** The answer as sent: its body, and a strong ETag of exactly those bytes. */
export interface SkuLookup {
  body: string;
  etag: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The public SKU lookup (GET /showcase/{public_id}/skus): which of a showcase's works a shop's SKUs name, as the
 * widget and theme developers need them. A SKU matches a variant's `sku`, else the `external_id` of an item
 * without variants; the first in the gallery's order wins. The showcase page shows every item of its showcase
 * (a sold or not-for-sale work too, with its label), so the lookup answers for all of them; one whose files are
 * not ready (converting, failed, a variant still building) is null, as an unknown SKU is.
 */
@Injectable()
export class ShowcaseSkusService {
  /**
   * Answers by showcase and question, reused for two seconds: a busy shop's pages ask the same few questions
   * many times a second, and each answer costs a read of the matching items with their results.
   */
  private readonly answers = new TtlCache<SkuLookup | null>({ ttlMs: 2_000 });

  constructor(
    private readonly items: ShowcaseItemRepository,
    private readonly urls: PublicUrls,
    @Inject(STORAGE) private readonly storage: StoragePort,
  ) {}

  /** Validates the query (400 UserError), reads once, answers `{skus: {A: {...}, B: null}}`; 404 for an unknown showcase. */
  async lookup(publicId: string, query: unknown): Promise<SkuLookup> {
    const { sku: asked } = parseInput(SkuLookupQuery, query ?? {});
    const skus = [...new Set(asked)];
    if (!/^shw_[a-z2-7]{24}$/.test(publicId)) throw ApiError.notFound('showcase');
    // The key keeps the asked order: the answer lists the SKUs in it.
    const answer = await this.answers.get(`${publicId}\n${JSON.stringify(skus)}`, () => this.read(publicId, skus));
    if (!answer) throw ApiError.notFound('showcase');
    return answer;
  }

  private async read(publicId: string, skus: string[]): Promise<SkuLookup | null> {
    const found = await this.items.itemsForSkus(publicId, skus);
    if (!found) return null;
    const out: Record<string, SkuMatch | null> = {};
    for (const s of skus) out[s] = this.match(found.items, s);
    const body = JSON.stringify({ skus: out });
    return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
  }

  /** The SKU's answer from the items the query found: a variant's first, else an item's external_id; null when not ready. */
  match(items: readonly ShowcaseItemRow[], sku: string): SkuMatch | null {
    for (const i of items) {
      const v = i.variants?.find((x) => x.sku === sku);
      if (v) return this.variantMatch(i, v);
    }
    const plain = items.find((i) => !i.variants && i.externalId === sku);
    return plain ? this.itemMatch(plain, sku) : null;
  }

  private ready(i: ShowcaseItemRow): i is ShowcaseItemRow & { embedId: string; result: Record<string, unknown> } {
    return i.status === 'completed' && i.result !== null && i.embedId !== null;
  }

  private itemMatch(i: ShowcaseItemRow, sku: string): SkuMatch | null {
    if (!this.ready(i)) return null;
    const r = i.result as unknown as StillImageResult;
    return this.view(i, sku, this.urls.embed(i.embedId!), r, describeAvailability(i.availability, 'en').kind);
  }

  private variantMatch(i: ShowcaseItemRow, v: ItemVariant): SkuMatch | null {
    const def = i.variants ? defaultVariant(i.variants) : undefined;
    if (!this.ready(i) || !v.build || !def) return null;
    const r = variantResult(i.result!, v, def) as unknown as StillImageResult;
    const embed = `${this.urls.embed(i.embedId!)}?variant=${encodeURIComponent(v.sku)}`;
    return this.view(i, v.sku, embed, r, variantAvailability(i.availability, v));
  }

  private view(i: ShowcaseItemRow, sku: string, embedUrl: string, r: StillImageResult, availability: AvailabilityKind): SkuMatch {
    const banner = isRecord(r.banner) ? r.banner : {};
    const dims = { width_inches: r.dimensions.width_inches, height_inches: r.dimensions.height_inches };
    return {
      item_id: i.id,
      sku,
      embed_url: embedUrl,
      glb_url: this.storage.url(r.files.glb.key),
      usdz_url: this.storage.url(r.files.usdz.key),
      poster_url: this.storage.url(r.files.poster.key),
      dimensions: dims,
      dimensions_cm: dimensionsCm(dims),
      availability,
      price: typeof banner.price === 'string' && banner.price ? banner.price : null,
    };
  }
}
