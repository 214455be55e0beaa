// The catalogue layer (issue 29): importing, labelling and sizing a gallery's works. Pure functions; no Nest, queue or DB.
export {};
export * from './csv';
export * from './i18n';
export * from './label';
