import type { AppConfig } from '@app/config';
import type { Plugin } from '@app/pipeline';

/**
 * Loads third-party plugins named in CONFIG_FILE by module path or package name. A module may export
 * the plugin as `default`, `plugin`, or be the plugin itself.
 */
export function loadPluginModules(config: AppConfig): Plugin<object>[] {
  return config.plugins.modules.map((spec) => {
    let mod: Record<string, unknown>;
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      mod = require(spec) as Record<string, unknown>;
    } catch (err) {
      throw new Error(`plugins: cannot load "${spec}": ${(err as Error).message}`, { cause: err });
    }
    const candidate = (mod.default ?? mod.plugin ?? mod) as Plugin<object>;
    if (!candidate || typeof candidate.name !== 'string' || typeof candidate.register !== 'function') {
      throw new Error(`plugins: "${spec}" does not export a plugin { name, register(container, options) }`);
    }
    return candidate;
  });
}
