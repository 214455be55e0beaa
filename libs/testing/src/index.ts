/**
 * Test helpers shared by the specs beside the code and the end-to-end tests in test/: real pictures,
 * model readers (glTF validator, tinyusdz), databases, fake providers and servers. Never imported by
 * product code.
 */
export * from './paths';
export * from './test-database';
export * from './db-templates';
export * from './memory-job-store';
export * from './data-sources';
export * from './pictures';
export * from './model-readers';
export * from './stage-context';
export * from './fake-providers';
export * from './s3-server';
export * from './webdav-server';
export * from './browser';
export * from './fakes/https-test-origin';
export * from './fakes/woocommerce.fake';
export * from './fakes/shopify-admin.fake';
