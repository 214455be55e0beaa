import type { DependencyContainer } from 'tsyringe';
import type { AppConfig } from '@app/config';
import type { StoragePort } from '@app/storage';

/** Well-known services the host registers for plugins to resolve in `register()`. */
export const SERVICES = {
  config: 'app.config',
  storage: 'app.storage',
  /** CallbackPort (see callback/callback.port.ts). */
  callbacks: 'app.callbacks',
} as const;

export function registerServices(container: DependencyContainer, s: { config: AppConfig; storage: StoragePort }): void {
  container.register(SERVICES.config, { useValue: s.config });
  container.register(SERVICES.storage, { useValue: s.storage });
}
