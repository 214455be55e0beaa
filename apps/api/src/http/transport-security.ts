import type { FastifyInstance } from 'fastify';

/**
 * `Strict-Transport-Security` on every response (pages, API, files, errors, CORS preflights) when the
 * configured public base URL is https (AppConfig.hsts): a browser that once reached the service over TLS
 * never tries plain http for it again, so a network attacker cannot strip TLS from a later visit. Added
 * at `onSend`, which every reply passes, also those answered in an earlier hook (the CORS preflight).
 */
export function registerTransportSecurity(fastify: FastifyInstance, hsts: string | null): void {
  if (!hsts) return;
  fastify.addHook('onSend', (_req, reply, payload, done) => {
    void reply.header('strict-transport-security', hsts);
    done(null, payload);
  });
}
