import 'reflect-metadata';
import { container, type DependencyContainer } from 'tsyringe';

export type { DependencyContainer } from 'tsyringe';

/** A fresh child container for one application (or one test). */
export function createContainer(): DependencyContainer {
  return container.createChildContainer();
}
