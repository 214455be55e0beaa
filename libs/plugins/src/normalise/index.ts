export * from './normalise-image';
export * from './normalise.stage';
export * from './normalise.plugin';
export * from '../fit/fit';
