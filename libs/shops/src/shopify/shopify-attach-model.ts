import { ShopApiError, ShopUnavailableError } from '../shop-errors';
import { shopifyGid } from './shopify-gid';
import type { ShopifyGraphql } from './shopify-graphql';
import {
  FILE_DELETE_MUTATION,
  METAFIELD_NAMESPACE,
  METAFIELDS_DELETE_MUTATION,
  PRODUCT_UPDATE_MEDIA_MUTATION,
  STAGED_UPLOADS_CREATE_MUTATION,
} from './shopify-queries';

interface StagedPayload {
  stagedUploadsCreate: {
    stagedTargets: { url: string; resourceUrl: string; parameters: { name: string; value: string }[] }[] | null;
    userErrors: { field: string[] | null; message: string }[];
  } | null;
}

interface ProductUpdatePayload {
  productUpdate: {
    product: { id: string; media: { nodes: { id: string; mediaContentType: string; status: string }[] } } | null;
    userErrors: { field: string[] | null; message: string }[];
  } | null;
}

/**
 * Puts a GLB in a product's media (the `"metafields+media"` push), Shopify's two steps
 * (https://shopify.dev/docs/apps/build/online-store/product-media): stagedUploadsCreate (resource MODEL_3D, POST,
 * with the file size, which 3D models require) returns a storage URL and the form fields that authorise the
 * upload; the bytes go there as multipart (fields first, the file last) — without our token, it is not Shopify's
 * API host — and productUpdate adds the media from the returned resourceUrl. Returns the new media's GID, to
 * remove it when the model changes or the item goes (removeShopifyMedia).
 */
export async function attachShopifyModel(
  gql: ShopifyGraphql,
  upload: typeof fetch,
  productId: string,
  glb: Uint8Array,
  filename: string,
): Promise<{ mediaId: string }> {
  const name = filename.replace(/[^\w.-]+/g, '_').slice(0, 100) || 'model.glb';
  const staged = await gql.request<StagedPayload>('StagedUploadsCreate', STAGED_UPLOADS_CREATE_MUTATION, {
    input: [{ filename: name, mimeType: 'model/gltf-binary', resource: 'MODEL_3D', fileSize: String(glb.byteLength), httpMethod: 'POST' }],
  });
  const errors = staged.stagedUploadsCreate?.userErrors ?? [];
  const target = staged.stagedUploadsCreate?.stagedTargets?.[0];
  if (errors.length > 0 || !target)
    throw new ShopApiError('shopify', `stagedUploadsCreate: ${errors.map((e) => e.message).join('; ') || 'no target'}`);

  const form = new FormData();
  for (const p of target.parameters) form.append(p.name, p.value);
  form.append('file', new Blob([new Uint8Array(glb)], { type: 'model/gltf-binary' }), name);
  let res: Response;
  try {
    res = await upload(target.url, { method: 'POST', body: form, signal: AbortSignal.timeout(120_000) });
  } catch (err) {
    throw new ShopUnavailableError('shopify', 1, `staged upload: ${(err as Error)?.message ?? 'network error'}`);
  }
  await res.arrayBuffer().catch(() => undefined);
  if (!res.ok) {
    if (res.status >= 500) throw new ShopUnavailableError('shopify', 1, `staged upload: HTTP ${res.status}`);
    throw new ShopApiError('shopify', `staged upload refused (HTTP ${res.status})`, res.status);
  }

  const updated = await gql.request<ProductUpdatePayload>('ProductUpdateMedia', PRODUCT_UPDATE_MEDIA_MUTATION, {
    product: { id: shopifyGid('Product', productId) },
    media: [{ originalSource: target.resourceUrl, mediaContentType: 'MODEL_3D', alt: name.replace(/\.glb$/i, '') }],
  });
  const updateErrors = updated.productUpdate?.userErrors ?? [];
  const media = updated.productUpdate?.product?.media.nodes.find((m) => m.mediaContentType === 'MODEL_3D');
  if (updateErrors.length > 0 || !media)
    throw new ShopApiError('shopify', `productUpdate media: ${updateErrors.map((e) => e.message).join('; ') || 'no media'}`);
  return { mediaId: media.id };
}

/** Deletes media we attached (a replaced or retired model); ids Shopify no longer has are not an error. */
export async function removeShopifyMedia(gql: ShopifyGraphql, mediaIds: string[]): Promise<void> {
  if (mediaIds.length === 0) return;
  const data = await gql.request<{ fileDelete: { userErrors: { message: string; code: string | null }[] } | null }>(
    'FileDelete',
    FILE_DELETE_MUTATION,
    {
      fileIds: mediaIds,
    },
  );
  const errors = (data.fileDelete?.userErrors ?? []).filter((e) => e.code !== 'FILE_DOES_NOT_EXIST');
  if (errors.length > 0) throw new ShopApiError('shopify', `fileDelete: ${errors.map((e) => e.message).join('; ')}`);
}

/**
 * Takes a model we attached off a product whose item went (the product unpublished): deletes the media
 * (fileDelete, as removeShopifyMedia) and then the `image_ar.media` metafield that named it, so that the product,
 * published again, gets the GLB attached anew instead of being taken for holding it.
 */
export async function detachShopifyModel(gql: ShopifyGraphql, productId: string, mediaId: string): Promise<void> {
  await removeShopifyMedia(gql, [mediaId]);
  const data = await gql.request<{ metafieldsDelete: { userErrors: { message: string }[] } | null }>(
    'MetafieldsDelete',
    METAFIELDS_DELETE_MUTATION,
    { metafields: [{ ownerId: shopifyGid('Product', productId), namespace: METAFIELD_NAMESPACE, key: 'media' }] },
  );
  const errors = data.metafieldsDelete?.userErrors ?? [];
  if (errors.length > 0) throw new ShopApiError('shopify', `metafieldsDelete: ${errors.map((e) => e.message).join('; ')}`);
}
