import type { FastifyInstance, onSendHookHandler } from 'fastify';

/**
 * Closes the connection after answering a request whose body was not read to its end (a refused upload:
 * no boundary, a NUL file name, over a cap). Node 24's server keeps such a keep-alive socket open and
 * discards the rest of the body in the background; a client that sends its next request on that socket
 * then waits forever for an answer (seen with undici's fetch). Closing is what HTTP/1.1 clients expect
 * after an early response, and costs one reconnect for a request that failed anyway.
 */
export function registerUnreadBodyClose(fastify: FastifyInstance): void {
  // Only on routes that take a body: a GET's hook chain stays as short as it was (the read path).
  fastify.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    if (!methods.some((m) => BODY_METHODS.has(m))) return;
    route.onSend = [...[route.onSend ?? []].flat(), closeIfUnread];
  });
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const closeIfUnread: onSendHookHandler = (request, reply, _payload, done) => {
  if (!request.raw.complete && !reply.raw.headersSent) void reply.header('connection', 'close');
  done();
};
