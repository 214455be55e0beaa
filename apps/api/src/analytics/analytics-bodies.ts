import type { FastifyInstance } from 'fastify';

/** The beacon route as Fastify knows it. */
export const EVENTS_ROUTE = '/api/events';
/** A beacon is small: 20 events. */
export const BEACON_MAX_BYTES = 16 * 1024;

/**
 * How the beacon route takes its body, set up on the module's own Fastify instance before the routes are
 * registered (AnalyticsModule's constructor): navigator.sendBeacon sends a string as `text/plain`, which no
 * other route reads (they keep answering 415 for it), and the route's bodies are at most {@link BEACON_MAX_BYTES}.
 */
export function registerBeaconBodies(fastify: FastifyInstance): void {
  fastify.addContentTypeParser('text/plain', { parseAs: 'string', bodyLimit: BEACON_MAX_BYTES }, (request, body, done) => {
    if (request.routeOptions.url !== EVENTS_ROUTE || request.method !== 'POST')
      return done(
        Object.assign(new Error('Unsupported Media Type'), { statusCode: 415, code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE' }),
        undefined,
      );
    done(null, body);
  });
  fastify.addHook('onRoute', (route) => {
    if (route.url === EVENTS_ROUTE && [route.method].flat().includes('POST')) route.bodyLimit = BEACON_MAX_BYTES;
  });
}
