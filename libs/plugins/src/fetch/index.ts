export * from './sniff';
export * from './ssrf-guard';
export * from './fetch-source';
export * from './fetch.stage';
export * from './fetch.plugin';
export * from './read-upload';
export * from './glb-texture';
