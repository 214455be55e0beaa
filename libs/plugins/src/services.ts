import type { ShutdownHook, TOKENS } from '@image-ar/plugin-sdk';
import type { DependencyContainer } from 'tsyringe';
import type { AppConfig } from '@app/config';
import type { StoragePort } from '@app/storage';

/** Well-known services the host registers for plugins to resolve in `register()`. */
export const SERVICES = {
  config: 'app.config',
  storage: 'app.storage',
  /** CallbackPort (see callback/callback.port.ts). */
  callbacks: 'app.callbacks',
  /** Zero or more {@link ShutdownHook}s, run by the host when the application closes. */
  shutdownHooks: 'app.shutdown-hooks',
} as const satisfies Pick<typeof TOKENS, 'config' | 'storage' | 'callbacks' | 'shutdownHooks'>;

/** Frees what a plugin started (worker processes, sessions); called once at application shutdown. */
export type { ShutdownHook } from '@image-ar/plugin-sdk';

/**
 * Registers `hook` to run when the host application closes (after its workers have drained).
 *
 * @example
 * onShutdown(container, () => pool.close());
 */
export function onShutdown(container: DependencyContainer, hook: ShutdownHook): void {
  container.register(SERVICES.shutdownHooks, { useValue: hook });
}

/**
 * Runs every registered shutdown hook; one failing does not stop the others. For hosts.
 *
 * @example
 * await runShutdownHooks(container);
 */
export async function runShutdownHooks(container: DependencyContainer): Promise<void> {
  if (!container.isRegistered(SERVICES.shutdownHooks, true)) return;
  await Promise.allSettled(container.resolveAll<ShutdownHook>(SERVICES.shutdownHooks).map((hook) => hook()));
}

export function registerServices(container: DependencyContainer, s: { config: AppConfig; storage: StoragePort }): void {
  container.register(SERVICES.config, { useValue: s.config });
  container.register(SERVICES.storage, { useValue: s.storage });
}
