export * from './woocommerce.types';
export * from './woocommerce-mapping';
export * from './woocommerce.client';
export * from './woocommerce-webhook';
