import type { DependencyContainer } from 'tsyringe';
import type { Plugin } from './plugin';
import type { StageProvider } from './stage.port';
import { type PipelineDefinition, stepId, validateDefinition } from './pipeline-definition';
import { PIPELINE_DEFINITION, stageToken } from './tokens';

/** Registers a stage provider under its token. Throws on a duplicate id in the same container. */
export function registerStage(container: DependencyContainer, provider: StageProvider<unknown, never>): void {
  const token = stageToken(provider.id);
  if (container.isRegistered(token)) {
    throw new Error(`registry: duplicate stage id "${provider.id}"`);
  }
  container.register(token, { useValue: provider });
}

/** Registers a pipeline definition. */
export function registerPipeline(container: DependencyContainer, def: PipelineDefinition): void {
  container.register(PIPELINE_DEFINITION, { useValue: def });
}

export interface RegistryOptions {
  /** Options per plugin name, from configuration. */
  pluginOptions?: Record<string, Record<string, unknown>>;
}

/**
 * The checked set of stages and pipelines. Built once at boot by {@link PipelineRegistry.boot}, which
 * fails with a clear message on a missing provider, a duplicate id or an unknown config key.
 */
export class PipelineRegistry {
  private constructor(
    private readonly container: DependencyContainer,
    private readonly pipelines: ReadonlyMap<string, PipelineDefinition>,
    readonly plugins: readonly string[],
  ) {}

  static async boot(
    container: DependencyContainer,
    plugins: readonly Plugin<object>[],
    options: RegistryOptions = {},
  ): Promise<PipelineRegistry> {
    const names = new Set<string>();
    for (const plugin of plugins) {
      if (!plugin || typeof plugin.name !== 'string' || typeof plugin.register !== 'function') {
        throw new Error('registry: a plugin must be an object { name, register(container, options) }');
      }
      if (names.has(plugin.name)) throw new Error(`registry: duplicate plugin name "${plugin.name}"`);
      names.add(plugin.name);
    }
    const configured = options.pluginOptions ?? {};
    for (const name of Object.keys(configured)) {
      if (!names.has(name)) {
        throw new Error(`registry: configuration names unknown plugin "${name}" (loaded: ${[...names].join(', ') || 'none'})`);
      }
    }
    for (const plugin of plugins) {
      const defaults = (plugin.defaults ?? {}) as Record<string, unknown>;
      const given = configured[plugin.name] ?? {};
      const unknown = Object.keys(given).filter((k) => !(k in defaults));
      if (unknown.length) {
        const allowed = Object.keys(defaults);
        throw new Error(
          `registry: unknown config key${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `"${k}"`).join(', ')} ` +
            `for plugin "${plugin.name}" (allowed: ${allowed.length ? allowed.join(', ') : 'none'})`,
        );
      }
      try {
        await plugin.register(container, { ...defaults, ...given });
      } catch (err) {
        throw new Error(`registry: plugin "${plugin.name}" failed to register: ${(err as Error).message}`, { cause: err });
      }
    }

    const pipelines = new Map<string, PipelineDefinition>();
    const defs = container.isRegistered(PIPELINE_DEFINITION) ? container.resolveAll<PipelineDefinition>(PIPELINE_DEFINITION) : [];
    for (const def of defs) {
      validateDefinition(def);
      if (pipelines.has(def.id)) throw new Error(`registry: duplicate pipeline id "${def.id}"`);
      pipelines.set(def.id, def);
    }
    for (const def of pipelines.values()) {
      for (const step of def.steps) {
        const token = stageToken(step.stage);
        // resolveAll throws on an unregistered token: ask first.
        const count = container.isRegistered(token) ? container.resolveAll(token).length : 0;
        if (count === 0) {
          throw new Error(`registry: pipeline "${def.id}" step "${stepId(step)}" needs stage "${step.stage}", which no plugin provides`);
        }
        if (count > 1) throw new Error(`registry: duplicate stage id "${step.stage}" (${count} providers)`);
      }
    }
    return new PipelineRegistry(container, pipelines, [...names]);
  }

  has(pipelineId: string): boolean {
    return this.pipelines.has(pipelineId);
  }

  pipeline(id: string): PipelineDefinition {
    const def = this.pipelines.get(id);
    if (!def) throw new Error(`registry: unknown pipeline "${id}" (known: ${[...this.pipelines.keys()].join(', ')})`);
    return def;
  }

  pipelineIds(): string[] {
    return [...this.pipelines.keys()];
  }

  stage(id: string): StageProvider {
    return this.container.resolve<StageProvider>(stageToken(id));
  }
}
