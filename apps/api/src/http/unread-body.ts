import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, onSendHookHandler } from 'fastify';

/** How long a closing connection keeps reading (and dropping) what the client still sends. */
const LINGER_MS = 2000;

/**
 * Closes the connection after answering a request whose body was not read to its end (a refused upload:
 * no boundary, a NUL file name, over a cap, no credits). Node 24's server keeps such a keep-alive socket
 * open and discards the rest of the body in the background; a client that sends its next request on that
 * socket then waits forever for an answer (seen with undici's fetch). Closing is what HTTP/1.1 clients
 * expect after an early response, and costs one reconnect for a request that failed anyway.
 *
 * The close lingers (RFC 9112 §9.6): the answer and our FIN go out, then what the client is still sending is
 * read and dropped until it stops or for {@link LINGER_MS}. Closing outright would answer those bytes
 * with a reset, and a client still writing its upload sees the reset (EPIPE) instead of the 402 or 413.
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
  if (!request.raw.complete && !reply.raw.headersSent) {
    void reply.header('connection', 'close');
    lingerOnClose(request.raw);
  }
  done();
};

/**
 * Replaces the socket's `destroySoon` (what Node's server calls once the last answer on a `Connection:
 * close` socket is written) with a lingering close. The HTTP parser stays attached and goes on pushing the
 * body into the request, which is let flow with nothing reading it: the bytes are dropped, and the socket
 * is not held back by a request stream nobody reads any more.
 */
function lingerOnClose(req: IncomingMessage): void {
  const socket = req.socket as Socket | null;
  if (!socket || socket.destroyed) return;
  socket.destroySoon = function lingeringClose(this: Socket) {
    req.unpipe();
    req.resume();
    this.end();
    const timer = setTimeout(() => this.destroy(), LINGER_MS);
    timer.unref();
    this.once('end', () => {
      clearTimeout(timer);
      this.destroy();
    });
    this.once('close', () => clearTimeout(timer));
    this.resume();
  };
}
