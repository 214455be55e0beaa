import type { ShopProduct } from '../shop-product';
import { shopifyGid } from './shopify-gid';
import type { ShopifyGraphql } from './shopify-graphql';
import { type GqlPageInfo, type GqlProduct, type GqlVariant, mapProduct } from './shopify-product.mapper';
import {
  PRODUCT_QUERY,
  PRODUCT_VARIANTS_QUERY,
  PRODUCTS_PER_PAGE,
  PRODUCTS_QUERY,
  VARIANTS_PER_PAGE,
  VARIANTS_PER_PRODUCT_PAGE,
} from './shopify-queries';

/** The rest of a product's variants after the first page that came with it, 50 a page. */
async function allVariants(gql: ShopifyGraphql, product: GqlProduct): Promise<GqlVariant[]> {
  const variants = [...product.variants.nodes];
  let page: GqlPageInfo = product.variants.pageInfo;
  while (page.hasNextPage) {
    const data = await gql.request<{ product: { variants: { nodes: GqlVariant[]; pageInfo: GqlPageInfo } } | null }>(
      'ProductVariants',
      PRODUCT_VARIANTS_QUERY,
      { id: product.id, first: VARIANTS_PER_PAGE, after: page.endCursor },
    );
    // Deleted between the two pages: what was read is all there is (the next sync sees the deletion).
    if (!data.product) break;
    variants.push(...data.product.variants.nodes);
    page = data.product.variants.pageInfo;
  }
  return variants;
}

/**
 * Every active product with all its variants, a page at a time (cursor pagination, `status:active` filtered by
 * Shopify), so a sync of thousands holds one page in memory. Sorted by id so a product created during the walk
 * cannot shift the cursor over one not yet read.
 */
export async function* listShopifyProducts(gql: ShopifyGraphql, currency: string | null): AsyncGenerator<ShopProduct> {
  let after: string | null = null;
  for (;;) {
    const data: { products: { nodes: GqlProduct[]; pageInfo: GqlPageInfo } } = await gql.request('Products', PRODUCTS_QUERY, {
      first: PRODUCTS_PER_PAGE,
      after,
      query: 'status:active',
      variantsFirst: VARIANTS_PER_PRODUCT_PAGE,
    });
    for (const p of data.products.nodes) yield mapProduct(p, await allVariants(gql, p), currency);
    if (!data.products.pageInfo.hasNextPage || !data.products.pageInfo.endCursor) return;
    after = data.products.pageInfo.endCursor;
  }
}

/** One product by its number or GID, whatever its status (webhooks); null when Shopify no longer has it. */
export async function getShopifyProduct(gql: ShopifyGraphql, id: string, currency: string | null): Promise<ShopProduct | null> {
  const data = await gql.request<{ product: GqlProduct | null }>('Product', PRODUCT_QUERY, {
    id: shopifyGid('Product', id),
    variantsFirst: VARIANTS_PER_PRODUCT_PAGE,
  });
  return data.product ? mapProduct(data.product, await allVariants(gql, data.product), currency) : null;
}
