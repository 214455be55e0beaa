/**
 * The dependency container a plugin's `register` receives. The service passes its tsyringe
 * `DependencyContainer`; this is the part of it a plugin needs, so the SDK has no runtime dependency.
 */
export interface PluginContainer {
  register<T>(token: string, provider: { useValue: T }): unknown;
  isRegistered(token: string, recursive?: boolean): boolean;
  resolve<T>(token: string): T;
  resolveAll<T>(token: string): T[];
}

/**
 * A plugin registers stage providers, pipeline definitions and other services into the container.
 * Built-ins and third-party plugins register the same way. A plugin module (CONFIG_FILE `plugins`) exports
 * the plugin as `default`, as `plugin`, or is the plugin itself.
 *
 * `defaults` lists every option the plugin accepts with its default value; the service rejects
 * configuration keys (CONFIG_FILE `pluginOptions.<name>`) that are not in it.
 *
 * `TContainer` is the container type `register` receives: {@link PluginContainer} for third-party
 * plugins, tsyringe's `DependencyContainer` inside the service.
 *
 * @example
 * ```ts
 * export const plugin: Plugin<{ greeting: string }> = {
 *   name: 'hello',
 *   defaults: { greeting: 'hi' },
 *   register(container, options) {
 *     container.register(stageToken('hello'), { useValue: { id: 'hello', run: async () => ({ said: options.greeting }) } });
 *   },
 * };
 * ```
 */
export interface Plugin<TOptions extends object = Record<string, unknown>, TContainer = PluginContainer> {
  /** The key of its options in CONFIG_FILE `pluginOptions`. */
  readonly name: string;
  readonly defaults?: Readonly<TOptions>;
  /** Runs once per process (API and worker alike), after the built-in plugins. */
  register(container: TContainer, options: TOptions): void | Promise<void>;
}
