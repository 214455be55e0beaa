/**
 * @image-ar/plugin-sdk — contracts of the image-to-AR service's extension points (motion models,
 * storage backends, pricing policies, pipeline stages) and identity helpers that keep their types.
 * The contract test kits live in `@image-ar/plugin-sdk/testing`.
 *
 * This entry point has no runtime dependency: everything but `TOKENS`, `stageToken` and the
 * `define*` helpers is types only.
 */
export type { Plugin, PluginContainer } from './plugin';
export type {
  JobStatus,
  PipelineDefinition,
  PipelineStep,
  StageCheckpoints,
  StageContext,
  StageJob,
  StageLogger,
  StagePhase,
  StageProvider,
  StageResource,
} from './stage';
export type {
  AlphaMode,
  FrameSequence,
  MotionContext,
  MotionHandle,
  MotionModelInfo,
  MotionOutput,
  MotionPoll,
  MotionProvider,
  MotionRequest,
  RawFrame,
} from './motion';
export type { CreateStorage, ObjectStat, StorageModuleContext, StoragePort, StoredObject } from './storage';
export type { BillableKind, BillableOperation, CreatePricingPolicy, PriceLine, PricingPolicy, Quote } from './pricing';
export { ANIMATED_AR_PRICE_ITEMS } from './pricing';
export { stageToken, TOKENS, type ShutdownHook, type StageToken } from './tokens';

import type { Plugin, PluginContainer } from './plugin';
import type { MotionProvider } from './motion';
import type { CreateStorage } from './storage';
import type { CreatePricingPolicy } from './pricing';

/** Identity helper that keeps a plugin's options type. */
export function definePlugin<TOptions extends object, TContainer = PluginContainer>(
  plugin: Plugin<TOptions, TContainer>,
): Plugin<TOptions, TContainer> {
  return plugin;
}

/** Identity helper for a motion provider. */
export function defineMotionProvider<T extends MotionProvider>(provider: T): T {
  return provider;
}

/** Identity helper for a storage module's `createStorage`. */
export function defineStorage<TOptions extends object>(factory: CreateStorage<TOptions>): CreateStorage<TOptions> {
  return factory;
}

/** Identity helper for a pricing module's `createPricingPolicy`. */
export function definePricingPolicy<TOptions extends object>(factory: CreatePricingPolicy<TOptions>): CreatePricingPolicy<TOptions> {
  return factory;
}
