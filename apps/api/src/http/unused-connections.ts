import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * At close, ends the connections that never carried a byte. Node counts a connection as busy from the moment it
 * opens until its first request completes, so `server.close()` (and Fastify's close of idle connections) does not
 * end one a client opened and never used: browsers' preconnects, a load balancer's spare connections, undici's
 * pool (which now and then opens two at once and sends on one). The close then waited for Node's headers timeout
 * (60 s, checked every 30 s) to drop it: a deployment's API process stayed up past its SIGTERM, and an e2e file's
 * app took ~70 s to close in about half its runs (test/gallery-walls.e2e-spec.ts, one socket, 0 bytes read).
 * Connections in a request are left to finish.
 */
export function registerUnusedConnectionClose(fastify: FastifyInstance): void {
  const sockets = new Set<Socket>();
  fastify.server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  // preClose: after Nest's shutdown hooks, just before the server stops listening and waits for its connections.
  fastify.addHook('preClose', async () => {
    for (const s of sockets) if (s.bytesRead === 0) s.destroy();
  });
}
