export * from './flipbook';
export * from './pack-atlases';
export * from './write-flipbook-glb';
export * from './write-flipbook-usdz';
