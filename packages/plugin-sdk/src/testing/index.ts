/**
 * Contract test kits for plugin authors: call them at the top level of a Jest spec file. They use Jest's
 * global `describe` / `it` / `expect` (jest is an optional peer dependency); the motion kit makes its test
 * pictures with `sharp` (an optional peer dependency too).
 */
export { describeStorageContract, UNSAFE_STORAGE_KEYS, type StorageContractOptions } from './storage-contract';
export { billableOperations, describePricingPolicyContract, quoteProblems, type PricingContractOptions } from './pricing-contract';
export {
  createTestContainer,
  describeMotionProviderContract,
  makeTestPicture,
  motionProvidersFromPlugin,
  type MotionProviderContractOptions,
} from './motion-contract';
export { assertStorageKey, createMemoryStorage } from './memory-storage';
