// Shop connections (issue 41): clients for the shops' own APIs (Shopify Admin GraphQL, WooCommerce REST v3),
// webhook signatures, and reading a shop's products as prints of a real size. Pure TypeScript over fetch:
// no Nest, queue or database (the API's connections module wires them).
export * from './shop-product';
export * from './shop-errors';
export * from './size';
export * from './woocommerce';
export * from './html-to-text';
export * from './shopify';
export * from './secret-box';
