import type { DependencyContainer } from 'tsyringe';

/**
 * A plugin registers stage providers, pipeline definitions and other services into the container.
 * Built-ins and third-party plugins register the same way.
 *
 * `defaults` lists every option the plugin accepts with its default value; the registry rejects
 * configuration keys that are not in it.
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
export interface Plugin<TOptions extends object = Record<string, unknown>> {
  readonly name: string;
  readonly defaults?: Readonly<TOptions>;
  register(container: DependencyContainer, options: TOptions): void | Promise<void>;
}

/** Identity helper that keeps the options type. */
export function definePlugin<TOptions extends object>(plugin: Plugin<TOptions>): Plugin<TOptions> {
  return plugin;
}
