import type { MotionModelInfo, MotionProvider, TOKENS } from '@image-ar/plugin-sdk';
import type { DependencyContainer } from 'tsyringe';

/**
 * The motion-model contract (`MotionProvider`, `MotionRequest`, `MotionPoll`...) is defined once, in
 * `@image-ar/plugin-sdk`: plugin authors compile against it and run its `describeMotionProviderContract`.
 */
export type {
  MotionContext,
  MotionHandle,
  MotionModelInfo,
  MotionOutput,
  MotionPoll,
  MotionProvider,
  MotionRequest,
} from '@image-ar/plugin-sdk';

export const MOTION_PROVIDER: typeof TOKENS.motionProvider = 'motion.provider';

/** Registers a motion provider (built-in or from a plugin). */
export function registerMotionProvider(container: DependencyContainer, provider: MotionProvider): void {
  container.register(MOTION_PROVIDER, { useValue: provider });
}

/**
 * The enabled motion models, by `video_model` id. Built from every registered provider; a model id
 * listed twice stops the boot.
 */
export class MotionCatalog {
  private readonly byModel = new Map<string, { provider: MotionProvider; info: MotionModelInfo }>();

  constructor(
    providers: readonly MotionProvider[],
    readonly defaultModel: string,
  ) {
    for (const provider of providers) {
      for (const info of provider.models()) {
        if (this.byModel.has(info.id)) throw new Error(`motion: model "${info.id}" is offered by two providers`);
        this.byModel.set(info.id, { provider, info });
      }
    }
    if (this.byModel.size > 0 && !this.byModel.has(defaultModel)) {
      throw new Error(`motion: the default video_model "${defaultModel}" is not enabled (enabled: ${this.ids().join(', ')})`);
    }
  }

  static fromContainer(container: DependencyContainer, defaultModel: string): MotionCatalog {
    const providers = container.isRegistered(MOTION_PROVIDER) ? container.resolveAll<MotionProvider>(MOTION_PROVIDER) : [];
    return new MotionCatalog(providers, defaultModel);
  }

  ids(): string[] {
    return [...this.byModel.keys()];
  }

  models(): MotionModelInfo[] {
    return [...this.byModel.values()].map((m) => m.info);
  }

  /** The ids of the providers that offer an enabled model. */
  providerIds(): string[] {
    return [...new Set([...this.byModel.values()].map((m) => m.provider.id))];
  }

  has(id: string): boolean {
    return this.byModel.has(id);
  }

  /** The provider of an enabled model; throws for an unknown id (the API checks first). */
  providerFor(id: string): MotionProvider {
    const m = this.byModel.get(id);
    if (!m) throw new Error(`motion: video_model "${id}" is not enabled`);
    return m.provider;
  }
}
