import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** The routes the shops post their product webhooks to (ShopWebhooksController). */
export const SHOP_WEBHOOK_ROUTES = ['/webhooks/shopify/:id', '/webhooks/woocommerce/:id'];
/** A product with many variants and long descriptions is well under this. */
export const SHOP_WEBHOOK_MAX_BYTES = 4 * 1024 * 1024;

/** The request's bytes as received, kept by {@link registerWebhookBodies} for the signature check. */
export type RawBodyRequest = FastifyRequest & { rawBody?: Buffer };

function tooLarge(): Error {
  return Object.assign(new Error('Request body is too large'), { statusCode: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE' });
}

/**
 * How the webhook routes take their bodies, set up on the Fastify instance before the routes are registered
 * (ShopWebhooksModule's constructor), so no shared file changes:
 * - the body's bytes are read once, before parsing, and kept as `request.rawBody`: the signatures are HMACs of the
 *   exact bytes (re-serialised JSON would differ), then handed on to the usual parsers (JSON; and the form body of
 *   WooCommerce's ping, `webhook_id=N`, which the HTTP adapter already parses).
 */
export function registerWebhookBodies(fastify: FastifyInstance): void {
  fastify.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    if (!SHOP_WEBHOOK_ROUTES.includes(route.url) || !methods.includes('POST')) return;
    route.bodyLimit = SHOP_WEBHOOK_MAX_BYTES;
    const keepRaw = async (request: FastifyRequest, _reply: unknown, payload: NodeJS.ReadableStream) => {
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of payload as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > SHOP_WEBHOOK_MAX_BYTES) throw tooLarge();
        chunks.push(chunk);
      }
      const raw = Buffer.concat(chunks);
      (request as RawBodyRequest).rawBody = raw;
      return Readable.from([raw], { objectMode: false });
    };
    const existing = route.preParsing ? [route.preParsing].flat() : [];
    route.preParsing = [...existing, keepRaw] as typeof route.preParsing;
  });
}
