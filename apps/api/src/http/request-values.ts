import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from './api-error';

/**
 * Deepest JSON nesting accepted. No request of the API needs more than a few levels; JSON.parse takes
 * 100,000, but recursive code after it (fingerprints, validation, logging) would overflow the stack.
 */
export const MAX_JSON_DEPTH = 64;

interface Node {
  value: unknown;
  depth: number;
  parent: Node | null;
  key: string | number | null;
}

/** `custom_links[0].title`, the way the validators name a parameter. Built only on error: bodies can be wide. */
function pathOf(node: Node | null, root: string): string {
  let path = '';
  for (let n = node; n && n.key !== null; n = n.parent) path = typeof n.key === 'number' ? `[${n.key}]${path}` : `.${n.key}${path}`;
  return root ? `${root}${path}` : path.replace(/^\./, '') || 'body';
}

const nulError = (param: string, subject = `${param}:`) => ApiError.invalid(param, `${subject} must not contain NUL (\\u0000) characters`);

/**
 * Refuses values nothing downstream can take: nesting deeper than {@link MAX_JSON_DEPTH}, and NUL (U+0000) in
 * any string or key, which Postgres rejects in text and jsonb (a 500 after validation passed). `root` names
 * a path or query parameter; the body's parameters are named by their own path. Iterative, so a body nested
 * 100,000 deep is refused instead of overflowing the stack here.
 */
export function assertSafeValues(value: unknown, root = ''): void {
  const stack: Node[] = [{ value, depth: 0, parent: null, key: null }];
  while (stack.length) {
    const node = stack.pop()!;
    const v = node.value;
    if (typeof v === 'string') {
      if (v.includes('\0')) throw nulError(pathOf(node, root));
      continue;
    }
    if (typeof v !== 'object' || v === null) continue;
    if (node.depth >= MAX_JSON_DEPTH) {
      throw new ApiError(400, 'invalid_request_error', 'body_too_deep', `the JSON body is nested more than ${MAX_JSON_DEPTH} levels deep`);
    }
    // Pushed last to first, so the first offending field in document order is the one reported.
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], depth: node.depth + 1, parent: node, key: i });
      continue;
    }
    const keys = Object.keys(v);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i];
      if (key.includes('\0')) throw nulError(pathOf(node, root), `${pathOf(node, root)}: keys`);
      stack.push({ value: (v as Record<string, unknown>)[key], depth: node.depth + 1, parent: node, key });
    }
  }
}

function checkRequest(req: FastifyRequest): void {
  for (const [name, v] of Object.entries((req.params ?? {}) as Record<string, unknown>)) assertSafeValues(v, name);
  for (const [name, v] of Object.entries((req.query ?? {}) as Record<string, unknown>)) {
    if (name.includes('\0')) throw nulError('query', 'query parameter names');
    assertSafeValues(v, name);
  }
  // Multipart bodies are streamed, not parsed here: their file names are checked where they are read.
  if (req.body !== undefined) assertSafeValues(req.body);
}

/**
 * One check for every route (admin included), after parsing and before any handler, guard or interceptor:
 * a shared refinement in each hand-written validator could be forgotten by the next new field.
 * Errors reach the HTTP error filter like any other.
 */
export function registerRequestValueChecks(fastify: FastifyInstance): void {
  fastify.addHook('preValidation', async (req) => checkRequest(req));
}
