import type { ShopifyGraphql } from './shopify-graphql';
import { METAFIELD_NAMESPACE, METAFIELDS_SET_MUTATION } from './shopify-queries';

/** metafieldsSet takes at most 25 metafields a call (https://shopify.dev/docs/api/admin-graphql/latest/mutations/metafieldsSet). */
export const METAFIELDS_PER_CALL = 25;

export interface ModelMetafieldWrite {
  /** A Product or ProductVariant GID (shopifyGid builds one from the number). */
  ownerId: string;
  /** The `image_ar.model` object (embed/glb/usdz/poster URLs, size, sku); written as JSON. */
  value: unknown;
  /** The key in the `image_ar` namespace (default `model`; the media push keeps its GLB's media id under `media`). */
  key?: string;
}

export interface MetafieldsSetResult {
  written: string[];
  failed: { ownerId: string; message: string; code: string | null }[];
}

interface Payload {
  metafieldsSet: {
    metafields: { id: string }[] | null;
    userErrors: { field: string[] | null; message: string; code: string | null; elementIndex: number | null }[];
  } | null;
}

/**
 * Writes `image_ar.model` (type json) on each owner, 25 a call. metafieldsSet is atomic per call: a call with a
 * user error writes none of its 25, so every owner of that call is reported failed — the one the error names with
 * Shopify's message, the others as not written — and the caller retries them on the next sync.
 */
export async function setShopifyModelMetafields(gql: ShopifyGraphql, writes: ModelMetafieldWrite[]): Promise<MetafieldsSetResult> {
  const result: MetafieldsSetResult = { written: [], failed: [] };
  for (let i = 0; i < writes.length; i += METAFIELDS_PER_CALL) {
    const chunk = writes.slice(i, i + METAFIELDS_PER_CALL);
    const data = await gql.request<Payload>('MetafieldsSet', METAFIELDS_SET_MUTATION, {
      metafields: chunk.map((w) => ({
        ownerId: w.ownerId,
        namespace: METAFIELD_NAMESPACE,
        key: w.key ?? 'model',
        type: 'json',
        value: typeof w.value === 'string' ? w.value : JSON.stringify(w.value),
      })),
    });
    const errors = data.metafieldsSet?.userErrors ?? [];
    if (errors.length === 0 && data.metafieldsSet) {
      result.written.push(...chunk.map((w) => w.ownerId));
      continue;
    }
    const named = new Map<number, { message: string; code: string | null }>();
    const general: string[] = [];
    for (const e of errors) {
      // elementIndex, else the index in field (["metafields", "3", "value"]), else the error concerns the call.
      const index = e.elementIndex ?? (e.field && /^\d+$/.test(e.field[1] ?? '') ? Number(e.field[1]) : null);
      if (index !== null && index >= 0 && index < chunk.length) named.set(index, { message: e.message, code: e.code ?? null });
      else general.push(e.message);
    }
    chunk.forEach((w, k) => {
      const own = named.get(k);
      const message = own?.message ?? (general.length ? general.join('; ') : 'not written: another metafield of the same call was refused');
      result.failed.push({ ownerId: w.ownerId, message, code: own?.code ?? null });
    });
  }
  return result;
}
