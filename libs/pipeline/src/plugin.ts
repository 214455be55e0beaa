import type { Plugin as SdkPlugin, PluginContainer } from '@image-ar/plugin-sdk';
import type { DependencyContainer } from 'tsyringe';

/**
 * A plugin registers stage providers, pipeline definitions and other services into the container.
 * Built-ins and third-party plugins register the same way. The contract is `Plugin` of
 * `@image-ar/plugin-sdk` (the single source of truth); inside the service `register` gets tsyringe's
 * container.
 *
 * @example
 * ```ts
 * export const plugin: Plugin<{ greeting: string }> = {
 *   name: 'hello',
 *   defaults: { greeting: 'hi' },
 *   register(container, options) {
 *     registerStage(container, { id: 'hello', run: async () => ({ said: options.greeting }) });
 *   },
 * };
 * ```
 */
export type Plugin<TOptions extends object = Record<string, unknown>> = SdkPlugin<TOptions, DependencyContainer>;

// Third-party plugins are typed against the SDK's minimal container; the service passes tsyringe's.
type _ContainerFits<T extends PluginContainer> = T;
type _TsyringeContainerFits = _ContainerFits<DependencyContainer>;

/** Identity helper that keeps the options type. */
export function definePlugin<TOptions extends object>(plugin: Plugin<TOptions>): Plugin<TOptions> {
  return plugin;
}
