export * from './standard-webhooks';
export * from './post-callback';
export * from './callback.port';
export * from './deliver-callback.stage';
export * from './callback.plugin';
