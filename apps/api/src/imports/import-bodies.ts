import type { FastifyInstance } from 'fastify';
import { IMPORT_JSON_MAX_BYTES } from './imports.schema';

/** The import route as Fastify knows it. */
export const IMPORT_ROUTE = '/api/v2/showcases/:id/imports';
/** The CSV media types the import route reads. */
export const CSV_TYPES = ['text/csv', 'application/csv'];

/** Fastify's own answer to a body type no parser takes (fastify itself is not a dependency to require at run time). */
function unsupportedMediaType(): Error {
  return Object.assign(new Error('Unsupported Media Type'), { statusCode: 415, code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE' });
}

/**
 * How the import route takes its bodies, set up on the module's own Fastify instance before the routes are
 * registered (ImportsModule's constructor), so no shared file changes:
 * - `text/csv` is not parsed: the parser leaves the request unread and the route streams `request.raw`
 *   row by row (never the whole file in memory, never as a string). Other routes keep answering 415 for it.
 * - JSON bodies of this route may be {@link IMPORT_JSON_MAX_BYTES} (5,000 items), not the API's 1 MiB.
 */
export function registerImportBodies(fastify: FastifyInstance): void {
  fastify.addContentTypeParser(CSV_TYPES, (request, _payload, done) => {
    if (request.routeOptions.url !== IMPORT_ROUTE || request.method !== 'POST') return done(unsupportedMediaType(), undefined);
    done(null, undefined);
  });
  fastify.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    if (route.url === IMPORT_ROUTE && methods.includes('POST')) route.bodyLimit = IMPORT_JSON_MAX_BYTES;
  });
}
