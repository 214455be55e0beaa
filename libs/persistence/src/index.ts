export * from './job.entity';
export * from './job.repository';
export * from './data-source.factory';
export { MIGRATIONS } from './migrations';
export * from './webhook.entity';
export * from './webhook.repository';
export * from './account.repository';
export * from './idempotency.repository';
export * from './showcase.repository';
// insertItems and REBUILD_ERROR_KEY stay inside the library (ShowcaseRepository.create and the edits use them).
export {
  type CreatedItems,
  ExternalIdTakenError,
  type ItemOptions,
  type ItemShowcase,
  type NewItem,
  type RebuildError,
  ShowcaseFullError,
  ShowcaseGoneError,
  ShowcaseItemRepository,
  type ShowcaseItemRow,
} from './showcase-item.repository';
export * from './item-edit.repository';
export * from './item-catalogue';
export { randomId } from './ids';
export { isDatabaseUnavailable, isForeignKeyViolation } from './database-errors';
export type { RepositoryHooks } from './repository-hooks';
export * from './data-deletion.repository';
export * from './console.repository';
export * from './catalogue-import.repository';
export * from './item-variants';
export * from './analytics.repository';
export * from './showcase-wall.repository';
export * from './shop-connection.repository';
