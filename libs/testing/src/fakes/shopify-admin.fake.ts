import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A protocol fake of Shopify's Admin GraphQL API (2025-10) for the operations ShopifyAdminClient sends: shop,
 * products (cursor pagination, `status:active`), product, a product's variants, metafieldsSet, webhookSubscriptionCreate,
 * stagedUploadsCreate with its upload target, productUpdate with media, fileDelete, metafieldsDelete. It is not a GraphQL engine:
 * each operation is recognised by its name and its root field, its variables are checked as Shopify's schema would,
 * and the answer has the documented shape. What makes it worth testing against is the rest of the protocol:
 * - the cost limit: a leaky bucket (maximumAvailable 2000, restoreRate 100/s by default) charged per query with an
 *   approximation of Shopify's calculated cost (a connection is 2 plus `first` times its node; mutations 10;
 *   the actual cost of what was returned is charged), `extensions.cost` on every answer, `THROTTLED` when the
 *   bucket lacks the requested cost, MAX_COST_EXCEEDED over 1000 for one query;
 * - scripted faults (5xx, 429 with Retry-After, THROTTLED, a dropped connection) and a revoked token (401);
 * - the writes: every metafieldsSet call and metafield, webhook subscriptions, uploads and media, and the deletions
 *   (every fileDelete call with the ids it deleted, every metafieldsDelete call).
 * Time comes from `now` so a test with a virtual clock (the client's injected sleep advancing it) runs instantly.
 */
export interface FakeShopifyVariant {
  id: number;
  title: string;
  sku: string | null;
  price: string;
  availableForSale: boolean;
  options: { name: string; value: string }[];
  imageUrl: string | null;
  /** `image_ar` metafields by key (values as Shopify stores them: strings). */
  metafields: Record<string, string>;
}

export interface FakeShopifyProduct {
  id: number;
  title: string;
  status: 'ACTIVE' | 'DRAFT' | 'ARCHIVED';
  vendor: string;
  descriptionHtml: string;
  updatedAt: string;
  imageUrl: string | null;
  metafields: Record<string, string>;
  variants: FakeShopifyVariant[];
  media: { id: string; resourceUrl: string }[];
}

export type FakeShopifyFault =
  | { status: 500 | 502 | 503 | 504; retryAfter?: string }
  | { status: 429; retryAfter?: string }
  | { throttled: true }
  | { dropConnection: true };

export interface FakeShopifyOptions {
  accessToken: string;
  shopName?: string;
  currency?: string;
  /** Generated store: `products` products with `variants` variants each (sizes in the option "Size"). */
  products?: number;
  variants?: number;
  maximumAvailable?: number;
  restoreRate?: number;
  /** The bucket's level at start (default full). */
  initialAvailable?: number;
  now?: () => number;
  tls?: { key: string | Buffer; cert: string | Buffer };
}

export interface FakeShopifyRequest {
  operationName: string;
  variables: Record<string, unknown>;
  outcome: 'ok' | 'throttled' | 'fault' | 'unauthorized' | 'error';
  requestedCost: number;
  availableBefore: number;
}

/** One fileDelete call: the ids asked for, and those deleted (a media id deleted also leaves its product's media). */
export interface FakeFileDelete {
  fileIds: string[];
  deletedFileIds: string[];
}

export interface FakeMetafieldWrite {
  ownerId: string;
  namespace: string;
  key: string;
  type: string;
  value: string;
}

const VERSION_MIN = '2025-10';
const MAX_QUERY_COST = 1000;
const MUTATION_COST = 10;
const VARIANT_NODE_COST = 12; // node 1, image 1, metafields(first: 8) 10
// node 1, featuredMedia 3, metafields 10, variants 2 + n × 12
const productNodeCost = (variantsFirst: number) => 16 + variantsFirst * VARIANT_NODE_COST;

class GqlFault extends Error {
  constructor(
    message: string,
    readonly code = 'BAD_REQUEST',
  ) {
    super(message);
  }
}

/** A generated product: sizes "20 x 30 cm", "25 x 35 cm", … so size parsing has something real to read. */
export function fakeShopifyProduct(id: number, variants: number): FakeShopifyProduct {
  return {
    id,
    title: `Print ${id}`,
    status: 'ACTIVE',
    vendor: 'Studio North',
    descriptionHtml: `<p>Giclée print <strong>No. ${id}</strong> on cotton rag.</p><ul><li>Archival inks</li></ul>`,
    updatedAt: '2025-11-01T10:00:00Z',
    imageUrl: `https://cdn.shopify.com/s/files/1/print-${id}.jpg`,
    metafields: {},
    media: [],
    variants: Array.from({ length: variants }, (_, j) => ({
      id: id * 1000 + j + 1,
      title: `${20 + 5 * j} x ${30 + 5 * j} cm`,
      sku: `P${id}-${j + 1}`,
      price: (29 + 10 * j).toFixed(2),
      availableForSale: true,
      options: [{ name: 'Size', value: `${20 + 5 * j} x ${30 + 5 * j} cm` }],
      imageUrl: null,
      metafields: {},
    })),
  };
}

const gid = (type: string, id: number | string) => `gid://shopify/${type}/${id}`;
const cursorOf = (index: number) => Buffer.from(`cursor:${index}`).toString('base64');
function indexOfCursor(cursor: unknown): number {
  if (cursor === null || cursor === undefined) return -1;
  const m = typeof cursor === 'string' ? /^cursor:(\d+)$/.exec(Buffer.from(cursor, 'base64').toString()) : null;
  if (!m) throw new GqlFault('Invalid cursor for current pagination sort.', 'BAD_USER_INPUT');
  return Number(m[1]);
}
function intVar(vars: Record<string, unknown>, name: string, required = true): number | undefined {
  const v = vars[name];
  if (v === undefined || v === null) {
    if (required) throw new GqlFault(`Variable $${name} of type Int! was provided invalid value`, 'BAD_USER_INPUT');
    return undefined;
  }
  if (!Number.isInteger(v) || (v as number) < 1 || (v as number) > 250)
    throw new GqlFault(`Variable $${name}: first must be 1..250`, 'BAD_USER_INPUT');
  return v as number;
}

export async function startFakeShopifyAdmin(opts: FakeShopifyOptions) {
  const now = opts.now ?? Date.now;
  const maximumAvailable = opts.maximumAvailable ?? 2000;
  const restoreRate = opts.restoreRate ?? 100;
  const bucket = { available: opts.initialAvailable ?? maximumAvailable, at: now() };
  const products: FakeShopifyProduct[] = Array.from({ length: opts.products ?? 0 }, (_, i) =>
    fakeShopifyProduct(8_100_000_000 + i + 1, opts.variants ?? 1),
  );
  const faults: FakeShopifyFault[] = [];
  const requests: FakeShopifyRequest[] = [];
  const metafieldsSetCalls: FakeMetafieldWrite[][] = [];
  const fileDeleteCalls: FakeFileDelete[] = [];
  const metafieldsDeleteCalls: { ownerId: string; namespace: string; key: string }[][] = [];
  const webhookSubscriptions: { id: string; topic: string; uri: string; metafieldNamespaces: string[] }[] = [];
  const uploads = new Map<string, { filename: string; fileSize: number; bytes?: Buffer; resourceUrl: string }>();
  /** Owners whose next metafieldsSet gets a user error (atomic: the whole call is refused). */
  const refuseOwners = new Set<string>();
  let revoked = false;
  let serial = 0;
  const sockets = new Set<Socket>();
  let base = '';

  const level = () => {
    const t = now();
    bucket.available = Math.min(maximumAvailable, bucket.available + ((t - bucket.at) / 1000) * restoreRate);
    bucket.at = t;
    return bucket.available;
  };
  const throttleStatus = () => ({ maximumAvailable, currentlyAvailable: Math.floor(level()), restoreRate });
  const productById = (id: unknown) => {
    const m = typeof id === 'string' ? /^gid:\/\/shopify\/Product\/(\d+)$/.exec(id) : null;
    if (!m) throw new GqlFault(`Invalid global id '${String(id)}'`, 'BAD_USER_INPUT');
    return products.find((p) => p.id === Number(m[1])) ?? null;
  };
  const ownerOf = (id: string) => {
    const m = /^gid:\/\/shopify\/(Product|ProductVariant)\/(\d+)$/.exec(id);
    if (!m) return null;
    if (m[1] === 'Product') return products.find((p) => p.id === Number(m[2])) ?? null;
    for (const p of products) for (const v of p.variants) if (v.id === Number(m[2])) return v;
    return null;
  };
  const metafieldNodes = (mf: Record<string, string>) => ({
    nodes: Object.entries(mf)
      .slice(0, 8)
      .map(([key, value]) => ({ key, value })),
  });
  const variantNode = (v: FakeShopifyVariant) => ({
    id: gid('ProductVariant', v.id),
    sku: v.sku,
    title: v.title,
    price: v.price,
    availableForSale: v.availableForSale,
    selectedOptions: v.options,
    image: v.imageUrl ? { url: v.imageUrl } : null,
    metafields: metafieldNodes(v.metafields),
  });
  const variantsPage = (p: FakeShopifyProduct, first: number, after: unknown) => {
    const start = indexOfCursor(after) + 1;
    const slice = p.variants.slice(start, start + first);
    return {
      nodes: slice.map(variantNode),
      pageInfo: { hasNextPage: start + first < p.variants.length, endCursor: slice.length ? cursorOf(start + slice.length - 1) : null },
    };
  };
  const productNode = (p: FakeShopifyProduct, variantsFirst: number) => ({
    id: gid('Product', p.id),
    title: p.title,
    status: p.status,
    vendor: p.vendor,
    descriptionHtml: p.descriptionHtml,
    updatedAt: p.updatedAt,
    featuredMedia: p.imageUrl ? { preview: { image: { url: p.imageUrl } } } : null,
    metafields: metafieldNodes(p.metafields),
    variants: variantsPage(p, variantsFirst, null),
  });
  const actualProductCost = (node: { variants: { nodes: unknown[] } }) =>
    productNodeCost(0) + node.variants.nodes.length * VARIANT_NODE_COST;

  /** Each operation: its root field (checked in the document), requested cost, and the resolver (data + actual cost). */
  type Resolver = (vars: Record<string, unknown>) => { requested: number; run: () => { data: unknown; actual: number } };
  const operations: Record<string, { root: RegExp; resolve: Resolver }> = {
    ShopInfo: {
      root: /\bshop\s*\{/,
      resolve: () => ({
        requested: 1,
        run: () => ({
          data: {
            shop: {
              name: opts.shopName ?? 'Fake Print Shop',
              currencyCode: opts.currency ?? 'EUR',
              myshopifyDomain: 'fake-prints.myshopify.com',
            },
          },
          actual: 1,
        }),
      }),
    },
    Products: {
      root: /\bproducts\s*\(/,
      resolve: (vars) => {
        const first = intVar(vars, 'first')!;
        const variantsFirst = intVar(vars, 'variantsFirst')!;
        const query = vars.query;
        if (query !== undefined && query !== null && typeof query !== 'string')
          throw new GqlFault('Variable $query must be a String', 'BAD_USER_INPUT');
        const start = indexOfCursor(vars.after) + 1;
        return {
          requested: 2 + first * productNodeCost(variantsFirst),
          run: () => {
            const status = typeof query === 'string' ? /status:(\w+)/.exec(query)?.[1]?.toUpperCase() : undefined;
            // The cursor is the index in the full list (sorted by id), so filtered-out products keep it stable.
            const matching = products.map((p, i) => ({ p, i })).filter(({ p, i }) => i >= start && (!status || p.status === status));
            const page = matching.slice(0, first);
            const nodes = page.map(({ p }) => productNode(p, variantsFirst));
            const last = page.at(-1);
            return {
              data: { products: { nodes, pageInfo: { hasNextPage: matching.length > first, endCursor: last ? cursorOf(last.i) : null } } },
              actual: 2 + nodes.reduce((sum, n) => sum + actualProductCost(n), 0),
            };
          },
        };
      },
    },
    Product: {
      root: /\bproduct\s*\(\s*id:/,
      resolve: (vars) => {
        const variantsFirst = intVar(vars, 'variantsFirst')!;
        const p = productById(vars.id);
        return {
          requested: 1 + productNodeCost(variantsFirst),
          run: () => {
            const node = p ? productNode(p, variantsFirst) : null;
            return { data: { product: node }, actual: 1 + (node ? actualProductCost(node) : 0) };
          },
        };
      },
    },
    ProductVariants: {
      root: /\bvariants\s*\(\s*first:/,
      resolve: (vars) => {
        const first = intVar(vars, 'first')!;
        const p = productById(vars.id);
        return {
          requested: 3 + first * VARIANT_NODE_COST,
          run: () => {
            const variants = p ? variantsPage(p, first, vars.after) : null;
            return { data: { product: variants ? { variants } : null }, actual: 3 + (variants?.nodes.length ?? 0) * VARIANT_NODE_COST };
          },
        };
      },
    },
    MetafieldsSet: {
      root: /\bmetafieldsSet\s*\(/,
      resolve: (vars) => {
        const input = vars.metafields;
        if (!Array.isArray(input))
          throw new GqlFault('Variable $metafields of type [MetafieldsSetInput!]! was provided invalid value', 'BAD_USER_INPUT');
        if (input.length > 25)
          throw new GqlFault(
            `The input array size of ${input.length} is greater than the maximum allowed of 25.`,
            'MAX_INPUT_SIZE_EXCEEDED',
          );
        return {
          requested: MUTATION_COST,
          run: () => ({ data: { metafieldsSet: metafieldsSet(input as FakeMetafieldWrite[]) }, actual: MUTATION_COST }),
        };
      },
    },
    WebhookSubscriptionCreate: {
      root: /\bwebhookSubscriptionCreate\s*\(/,
      resolve: (vars) => {
        const topic = String(vars.topic);
        const sub = (vars.webhookSubscription ?? {}) as { uri?: string; format?: string; metafieldNamespaces?: string[] };
        if (!['PRODUCTS_CREATE', 'PRODUCTS_UPDATE', 'PRODUCTS_DELETE'].includes(topic))
          throw new GqlFault(`Variable $topic: '${topic}' is not a WebhookSubscriptionTopic`, 'BAD_USER_INPUT');
        return {
          requested: MUTATION_COST,
          run: () => {
            const userErrors: { field: string[]; message: string }[] = [];
            if (!sub.uri || !/^https:\/\//.test(sub.uri))
              userErrors.push({ field: ['webhookSubscription', 'uri'], message: 'Address protocol http:// is not supported' });
            else if (webhookSubscriptions.some((w) => w.topic === topic && w.uri === sub.uri))
              userErrors.push({ field: ['webhookSubscription', 'callbackUrl'], message: 'Address for this topic has already been taken' });
            if (userErrors.length)
              return { data: { webhookSubscriptionCreate: { webhookSubscription: null, userErrors } }, actual: MUTATION_COST };
            const w = {
              id: gid('WebhookSubscription', ++serial),
              topic,
              uri: sub.uri!,
              metafieldNamespaces: sub.metafieldNamespaces ?? [],
            };
            webhookSubscriptions.push(w);
            return {
              data: { webhookSubscriptionCreate: { webhookSubscription: { id: w.id, topic, uri: w.uri }, userErrors } },
              actual: MUTATION_COST,
            };
          },
        };
      },
    },
    StagedUploadsCreate: {
      root: /\bstagedUploadsCreate\s*\(/,
      resolve: (vars) => {
        const input = vars.input as { filename?: string; mimeType?: string; resource?: string; fileSize?: string; httpMethod?: string }[];
        if (!Array.isArray(input) || input.length === 0) throw new GqlFault('Variable $input was provided invalid value', 'BAD_USER_INPUT');
        return {
          requested: MUTATION_COST,
          run: () => {
            const userErrors: { field: string[]; message: string }[] = [];
            const stagedTargets = input.flatMap((u, i) => {
              if (u.resource === 'MODEL_3D' && !u.fileSize) {
                userErrors.push({ field: ['input', String(i), 'fileSize'], message: 'File size is required for MODEL_3D' });
                return [];
              }
              const key = `tmp/${++serial}/${u.filename}`;
              const resourceUrl = `${base}/staged/${key}`;
              uploads.set(key, { filename: String(u.filename), fileSize: Number(u.fileSize), resourceUrl });
              return [
                {
                  url: `${base}/staged-upload`,
                  resourceUrl,
                  parameters: [
                    { name: 'Content-Type', value: String(u.mimeType) },
                    { name: 'key', value: key },
                    { name: 'policy', value: 'fake-signed-policy' },
                  ],
                },
              ];
            });
            return { data: { stagedUploadsCreate: { stagedTargets, userErrors } }, actual: MUTATION_COST };
          },
        };
      },
    },
    ProductUpdateMedia: {
      root: /\bproductUpdate\s*\(/,
      resolve: (vars) => {
        const p = productById((vars.product as { id?: unknown } | undefined)?.id);
        const media = (vars.media ?? []) as { originalSource?: string; mediaContentType?: string }[];
        return {
          requested: MUTATION_COST,
          run: () => {
            if (!p)
              return {
                data: { productUpdate: { product: null, userErrors: [{ field: ['product', 'id'], message: 'Product does not exist' }] } },
                actual: MUTATION_COST,
              };
            const userErrors: { field: string[]; message: string }[] = [];
            media.forEach((m, i) => {
              const upload = [...uploads.values()].find((u) => u.resourceUrl === m.originalSource);
              if (!upload?.bytes)
                userErrors.push({
                  field: ['media', String(i), 'originalSource'],
                  message: 'Media failed to process: the file was not uploaded',
                });
              else if (m.mediaContentType !== 'MODEL_3D' || upload.bytes.subarray(0, 4).toString() !== 'glTF')
                userErrors.push({ field: ['media', String(i)], message: 'Model3d must be a binary glTF file' });
              else p.media.push({ id: gid('Model3d', ++serial), resourceUrl: upload.resourceUrl });
            });
            const nodes = p.media.slice(-1).map((m) => ({ id: m.id, mediaContentType: 'MODEL_3D', status: 'UPLOADED' }));
            return {
              data: { productUpdate: { product: { id: gid('Product', p.id), media: { nodes } }, userErrors } },
              actual: MUTATION_COST,
            };
          },
        };
      },
    },
    FileDelete: {
      root: /\bfileDelete\s*\(/,
      resolve: (vars) => ({
        requested: MUTATION_COST,
        run: () => {
          const ids = (vars.fileIds ?? []) as string[];
          const deleted: string[] = [];
          const userErrors: { field: string[]; message: string; code: string }[] = [];
          for (const id of ids) {
            const owner = products.find((p) => p.media.some((m) => m.id === id));
            if (!owner) userErrors.push({ field: ['fileIds'], message: `File id ${id} does not exist.`, code: 'FILE_DOES_NOT_EXIST' });
            else {
              owner.media = owner.media.filter((m) => m.id !== id);
              deleted.push(id);
            }
          }
          fileDeleteCalls.push({ fileIds: [...ids], deletedFileIds: [...deleted] });
          return { data: { fileDelete: { deletedFileIds: deleted, userErrors } }, actual: MUTATION_COST };
        },
      }),
    },
    MetafieldsDelete: {
      root: /\bmetafieldsDelete\s*\(/,
      resolve: (vars) => {
        const input = vars.metafields as { ownerId?: unknown; namespace?: unknown; key?: unknown }[];
        if (!Array.isArray(input) || input.length === 0)
          throw new GqlFault('Variable $metafields of type [MetafieldIdentifierInput!]! was provided invalid value', 'BAD_USER_INPUT');
        return {
          requested: MUTATION_COST,
          run: () => {
            // As documented: an identifier whose metafield does not exist is answered null, not an error.
            const ids = input.map((m) => ({ ownerId: String(m.ownerId), namespace: String(m.namespace), key: String(m.key) }));
            metafieldsDeleteCalls.push(ids);
            const deletedMetafields = ids.map((m) => {
              const owner = ownerOf(m.ownerId);
              if (!owner || m.namespace !== 'image_ar' || !(m.key in owner.metafields)) return null;
              delete owner.metafields[m.key];
              return m;
            });
            return { data: { metafieldsDelete: { deletedMetafields, userErrors: [] } }, actual: MUTATION_COST };
          },
        };
      },
    },
  };

  /** metafieldsSet as documented: all or nothing per call, user errors with elementIndex. */
  function metafieldsSet(input: FakeMetafieldWrite[]) {
    const userErrors: { field: string[]; message: string; code: string; elementIndex: number }[] = [];
    input.forEach((m, i) => {
      const err = (field: string, message: string, code = 'INVALID_VALUE') =>
        userErrors.push({ field: ['metafields', String(i), field], message, code, elementIndex: i });
      if (!ownerOf(String(m.ownerId)) || refuseOwners.has(String(m.ownerId))) err('ownerId', 'Owner does not exist.', 'INVALID');
      if (!m.namespace || m.namespace.length < 3 || m.namespace.length > 255)
        err('namespace', 'Namespace is too short (minimum is 3 characters)');
      if (!m.key || !/^[\w-]{2,64}$/.test(m.key)) err('key', 'Key is invalid');
      if (m.type === 'json') {
        try {
          JSON.parse(m.value);
        } catch {
          err('value', 'Value must be valid JSON.');
        }
      }
    });
    if (userErrors.length) return { metafields: [], userErrors };
    metafieldsSetCalls.push(input.map((m) => ({ ownerId: m.ownerId, namespace: m.namespace, key: m.key, type: m.type, value: m.value })));
    const metafields = input.map((m) => {
      if (m.namespace === 'image_ar') ownerOf(m.ownerId)!.metafields[m.key] = m.value;
      return { id: gid('Metafield', ++serial), key: m.key, namespace: m.namespace, owner: { id: m.ownerId } };
    });
    return { metafields, userErrors };
  }

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers }).end(text);
  };

  function handleGraphql(req: IncomingMessage, res: ServerResponse, raw: Buffer) {
    const record = (operationName: string, variables: Record<string, unknown>, outcome: FakeShopifyRequest['outcome'], requestedCost = 0) =>
      requests.push({ operationName, variables, outcome, requestedCost, availableBefore: Math.floor(level()) });
    if (revoked || req.headers['x-shopify-access-token'] !== opts.accessToken) {
      record('', {}, 'unauthorized');
      return send(res, 401, { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' });
    }
    let body: { query?: unknown; variables?: unknown; operationName?: unknown };
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      return send(res, 400, { errors: { query: 'Required parameter missing or invalid' } });
    }
    const query = typeof body.query === 'string' ? body.query : '';
    const variables = (body.variables && typeof body.variables === 'object' ? body.variables : {}) as Record<string, unknown>;
    const name = (typeof body.operationName === 'string' && body.operationName) || /^\s*(?:query|mutation)\s+(\w+)/.exec(query)?.[1] || '';
    const fault = faults.shift();
    if (fault) {
      record(name, variables, 'fault');
      if ('dropConnection' in fault) return void req.socket.destroy();
      if ('throttled' in fault) {
        bucket.available = 0;
        return send(res, 200, throttledBody(MUTATION_COST));
      }
      return send(
        res,
        fault.status,
        {
          errors:
            fault.status === 429
              ? 'Exceeded 2 calls per second for api client. Reduce request rates to resume uninterrupted service.'
              : 'Internal Server Error',
        },
        fault.retryAfter ? { 'retry-after': fault.retryAfter } : {},
      );
    }
    const op = operations[name];
    if (!op || !op.root.test(query)) {
      record(name, variables, 'error');
      return send(res, 200, {
        errors: [{ message: `Field or operation '${name}' doesn't exist on this fake`, extensions: { code: 'undefinedField' } }],
      });
    }
    let plan: ReturnType<Resolver>;
    try {
      plan = op.resolve(variables);
    } catch (err) {
      record(name, variables, 'error');
      const e = err as GqlFault;
      return send(res, 200, { errors: [{ message: e.message, extensions: { code: e.code ?? 'INTERNAL_SERVER_ERROR' } }] });
    }
    if (plan.requested > MAX_QUERY_COST) {
      record(name, variables, 'error', plan.requested);
      return send(res, 200, {
        errors: [
          {
            message: `Query cost is ${plan.requested}, which exceeds the single query max cost limit (${MAX_QUERY_COST}).`,
            extensions: { code: 'MAX_COST_EXCEEDED', cost: plan.requested, maxCost: MAX_QUERY_COST },
          },
        ],
      });
    }
    if (level() < plan.requested) {
      record(name, variables, 'throttled', plan.requested);
      return send(res, 200, throttledBody(plan.requested));
    }
    record(name, variables, 'ok', plan.requested);
    let result: { data: unknown; actual: number };
    try {
      result = plan.run();
    } catch (err) {
      const e = err as GqlFault;
      return send(res, 200, { errors: [{ message: e.message, extensions: { code: e.code ?? 'INTERNAL_SERVER_ERROR' } }] });
    }
    bucket.available -= result.actual;
    send(res, 200, {
      data: result.data,
      extensions: { cost: { requestedQueryCost: plan.requested, actualQueryCost: result.actual, throttleStatus: throttleStatus() } },
    });
  }

  const throttledBody = (requested: number) => ({
    errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED', documentation: 'https://shopify.dev/api/usage/rate-limits' } }],
    extensions: { cost: { requestedQueryCost: requested, actualQueryCost: null, throttleStatus: throttleStatus() } },
  });

  /** The storage side of a staged upload: multipart with the target's parameters and the file last. */
  async function handleUpload(req: IncomingMessage, res: ServerResponse, raw: Buffer) {
    let form: FormData;
    try {
      form = await new Response(new Uint8Array(raw), { headers: { 'content-type': String(req.headers['content-type']) } }).formData();
    } catch {
      return void res.writeHead(400).end('malformed multipart');
    }
    const key = form.get('key');
    const upload = typeof key === 'string' ? uploads.get(key) : undefined;
    const file = form.get('file');
    if (!upload || form.get('policy') !== 'fake-signed-policy' || !(file instanceof Blob))
      return void res.writeHead(403).end('<Error><Code>AccessDenied</Code></Error>');
    if (req.headers['x-shopify-access-token']) return void res.writeHead(400).end('unexpected credentials at the storage host');
    const bytes = Buffer.from(await file.arrayBuffer());
    if (bytes.length !== upload.fileSize) return void res.writeHead(400).end('<Error><Code>EntityTooLarge</Code></Error>');
    upload.bytes = bytes;
    res.writeHead(201).end();
  }

  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > 64 * 1024 * 1024) req.destroy();
      else chunks.push(c);
    });
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const m = /^\/admin\/api\/(\d{4}-\d{2}|unstable)\/graphql\.json$/.exec(path);
      if (req.method === 'POST' && m) {
        if (m[1] !== 'unstable' && m[1] < VERSION_MIN) return send(res, 404, { errors: 'Not Found' });
        return handleGraphql(req, res, raw);
      }
      if (req.method === 'POST' && path === '/staged-upload') return void handleUpload(req, res, raw);
      res.writeHead(404).end();
    });
  };

  const server: Server = opts.tls ? createHttpsServer({ key: opts.tls.key, cert: opts.tls.cert }, onRequest) : createHttpServer(onRequest);
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `${opts.tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    /** Pass as the client's `endpoint`. */
    url: base,
    products,
    requests,
    metafieldsSetCalls,
    fileDeleteCalls,
    metafieldsDeleteCalls,
    webhookSubscriptions,
    uploads,
    /** Queues faults answered to the next requests, in order. */
    fault(...next: FakeShopifyFault[]) {
      faults.push(...next);
    },
    revokeToken() {
      revoked = true;
    },
    /** The merchant installed the app again with the same token (after {@link revokeToken}). */
    restoreToken() {
      revoked = false;
    },
    refuseMetafieldOwner(ownerId: string) {
      refuseOwners.add(ownerId);
    },
    setAvailable(points: number) {
      level();
      bucket.available = points;
    },
    available: () => level(),
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type FakeShopifyAdmin = Awaited<ReturnType<typeof startFakeShopifyAdmin>>;
