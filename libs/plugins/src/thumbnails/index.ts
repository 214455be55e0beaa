export * from './thumbnail-files';
export * from './thumbnails.stage';
export * from './thumbnails.plugin';
