import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Contract check of the e2e suites: every JSON answer the tests receive through `Api` is validated against
 * the OpenAPI document the service publishes (GET /openapi.json), matched by method, path template and
 * status code. An undocumented route or status, or a body that does not match its schema, fails the test.
 * Answers that are not JSON (files, HTML pages, scripts) and bodiless answers are not checked.
 * Requests too: a JSON body the service accepted (2xx) must match the operation's documented request body,
 * so the document cannot describe fewer (or other) fields than the API takes. Refused requests are the
 * tests' deliberate bad input and are not checked.
 */

type Json = Record<string, any>;

interface Operation {
  method: string;
  template: string;
  regex: RegExp;
  params: number;
  responses: Json;
  requestBody?: Json;
}

export interface ContractCheck {
  /** Throws with a readable message when the answer is not what the document says. */
  check(
    method: string,
    url: string,
    status: number,
    contentType: string | null,
    body: unknown,
    request?: { contentType: string | null; body: unknown },
  ): void;
}

const SCHEMA_ID = 'openapi';

/** OpenAPI 3.0 schema -> JSON Schema (draft 7, as ajv reads it): nullable, boolean exclusive bounds, refs into the one document. */
export function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) {
    if (k === 'example' || k === 'examples' || k === 'xml' || k === 'externalDocs' || k === 'discriminator' || k === 'deprecated') continue;
    if (k === '$ref' && typeof v === 'string') out.$ref = v.startsWith('#') ? `${SCHEMA_ID}${v}` : v;
    else if (k === 'properties' || k === 'patternProperties')
      out[k] = Object.fromEntries(Object.entries(v as Json).map(([p, s]) => [p, toJsonSchema(s)]));
    else out[k] = toJsonSchema(v);
  }
  if (out.exclusiveMinimum === true) [out.exclusiveMinimum, out.minimum] = [out.minimum, undefined];
  if (out.exclusiveMaximum === true) [out.exclusiveMaximum, out.maximum] = [out.maximum, undefined];
  if (out.exclusiveMinimum === false) delete out.exclusiveMinimum;
  if (out.exclusiveMaximum === false) delete out.exclusiveMaximum;
  for (const k of ['minimum', 'maximum']) if (out[k] === undefined) delete out[k];
  if (out.nullable === true) {
    delete out.nullable;
    if (out.$ref || out.allOf || out.oneOf || out.anyOf) return { anyOf: [out, { type: 'null' }] };
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  } else if (out.nullable === false) {
    delete out.nullable;
  }
  return out;
}

function isJson(contentType: string | null): boolean {
  return !!contentType && /^application\/([\w.+-]*\+)?json\b/i.test(contentType);
}

export function createContractCheck(doc: Json): ContractCheck {
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  ajv.addFormat('binary', true);
  ajv.addSchema({ $id: SCHEMA_ID, components: { schemas: toJsonSchema(doc.components?.schemas ?? {}) } });
  const ops: Operation[] = [];
  for (const [template, item] of Object.entries(doc.paths as Json)) {
    for (const [method, op] of Object.entries(item as Json)) {
      if (!op || typeof op !== 'object' || !op.responses) continue;
      const params = (template.match(/\{[^}]+\}/g) ?? []).length;
      // The files route's {path} is a storage key: it may contain "/".
      const source = template
        .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
        .replace(/\{([^}]+)\}/g, (_, name: string) => (template.startsWith('/files/') && name === 'path' ? '.+' : '[^/]+'));
      ops.push({
        method: method.toUpperCase(),
        template,
        regex: new RegExp(`^${source}$`),
        params,
        responses: op.responses,
        requestBody: op.requestBody,
      });
    }
  }
  // Literal paths win over templates (/api/v2/animated-ar/options before any {id}).
  ops.sort((a, b) => a.params - b.params);
  const compiled = new Map<unknown, ValidateFunction>();
  const validator = (schema: unknown) => {
    let v = compiled.get(schema);
    if (!v) compiled.set(schema, (v = ajv.compile(toJsonSchema(schema) as Json)));
    return v;
  };
  const errorSchema = validator({ $ref: '#/components/schemas/ErrorResponseDto' });

  return {
    check(method, url, status, contentType, body, request) {
      method = method.toUpperCase();
      if (method === 'HEAD' || method === 'OPTIONS') return;
      const path = new URL(url, 'http://x').pathname;
      const where = `${method} ${path} -> ${status}`;
      const op = ops.find((o) => o.method === method && o.regex.test(path));
      if (!op) {
        // Unknown routes answer the documented error object (404 route_not_found); anything else is undocumented.
        if (status === 404 && isJson(contentType) && errorSchema(body)) return;
        if (!isJson(contentType)) return;
        throw new Error(`OpenAPI contract: ${where}: no operation in the document matches ${method} ${path}`);
      }
      if (request && status >= 200 && status < 300 && isJson(request.contentType) && request.body !== undefined) {
        const media = op.requestBody?.content?.['application/json'];
        if (!media?.schema)
          throw new Error(`OpenAPI contract: ${where}: accepted a JSON body, but ${method} ${op.template} documents no JSON request body`);
        const validate = validator(media.schema);
        if (!validate(request.body)) {
          const errors = (validate.errors ?? [])
            .slice(0, 8)
            .map(
              (e) =>
                `  ${e.instancePath || '(body)'} ${e.message}${e.params && Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : ''}`,
            );
          throw new Error(
            `OpenAPI contract: ${where}: the service accepted a request body that does not match the documented request body of ${method} ${op.template}:\n${errors.join('\n')}\nbody: ${JSON.stringify(request.body).slice(0, 1500)}`,
          );
        }
      }
      const r = op.responses[String(status)] ?? op.responses[`${String(status)[0]}XX`] ?? op.responses.default;
      if (!r)
        throw new Error(
          `OpenAPI contract: ${where}: status ${status} is not documented for ${method} ${op.template} (documented: ${Object.keys(op.responses).join(', ')})`,
        );
      if (!isJson(contentType) || body === '' || body === undefined) return;
      const media = r.content?.['application/json'] ?? Object.entries(r.content ?? {}).find(([t]) => isJson(t))?.[1];
      if (!media?.schema)
        throw new Error(`OpenAPI contract: ${where}: answered JSON, but ${method} ${op.template} ${status} documents no JSON body`);
      const validate = validator(media.schema);
      if (!validate(body)) {
        const errors = (validate.errors ?? [])
          .slice(0, 8)
          .map(
            (e) =>
              `  ${e.instancePath || '(body)'} ${e.message}${e.params && Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : ''}`,
          );
        throw new Error(
          `OpenAPI contract: ${where}: the body does not match the schema of ${method} ${op.template} ${status}:\n${errors.join('\n')}\nbody: ${JSON.stringify(body).slice(0, 1500)}`,
        );
      }
    },
  };
}

const checks = new Map<string, Promise<ContractCheck>>();

/** The contract of the service at `base` (its published /openapi.json; docs/openapi.json when it has none), fetched once. */
export function contractFor(base: string): Promise<ContractCheck> {
  let c = checks.get(base);
  if (!c) {
    c = (async () => {
      let doc: Json | undefined;
      try {
        const r = await fetch(`${base}/openapi.json`);
        if (r.ok) doc = (await r.json()) as Json;
      } catch {
        // not a service of ours (or not up yet): fall back to the committed document
      }
      doc ??= JSON.parse(readFileSync(join(__dirname, '../../docs/openapi.json'), 'utf8')) as Json;
      return createContractCheck(doc);
    })();
    c.catch(() => checks.delete(base));
    checks.set(base, c);
  }
  return c;
}
