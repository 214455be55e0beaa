type Json = Record<string, any>;

const refName = (ref: unknown) =>
  typeof ref === 'string' && ref.startsWith('#/components/schemas/') ? ref.slice('#/components/schemas/'.length) : undefined;

/** Names of the component schemas reachable from `roots` through `$ref`s. */
function reachable(schemas: Json, roots: unknown[]): Set<string> {
  const seen = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== 'object') return;
    const name = refName((node as Json).$ref);
    if (name && !seen.has(name)) {
      seen.add(name);
      walk(schemas[name]);
    }
    for (const [k, v] of Object.entries(node as Json)) if (k !== '$ref') walk(v);
  };
  roots.forEach(walk);
  return seen;
}

/** Only null, in OpenAPI 3.0 terms (`nullable` needs a `type`). */
const NULL_ONLY = { type: 'string', nullable: true, enum: [null] };

/**
 * An optional property that also takes null: `nullable` beside its type; a property without one (a `$ref`,
 * a `oneOf`) becomes `anyOf: [itself, null]`, its description kept outside.
 */
function allowNull(prop: Json): Json {
  if (prop.nullable) return prop;
  if (typeof prop.type === 'string') return { ...prop, nullable: true };
  // A choice of schemas gets null as one more choice, so its alternatives keep their places.
  if (Array.isArray(prop.oneOf) && !prop.allOf && !prop.anyOf) return { ...prop, oneOf: [...prop.oneOf, NULL_ONLY] };
  const { description, ...rest } = prop;
  // Nest writes a described `$ref` as a one-element allOf: inside anyOf the reference alone says it.
  const alone = Object.keys(rest).length === 1 && Array.isArray(rest.allOf) && rest.allOf.length === 1 ? rest.allOf[0] : rest;
  return { ...(description !== undefined ? { description } : {}), anyOf: [alone, NULL_ONLY] };
}

/** Every optional property of an object schema (and of the objects inline in it) takes null. */
function nullableOptionals(schema: Json): void {
  if (!schema || typeof schema !== 'object') return;
  if (schema.properties) {
    const required = new Set<string>(schema.required ?? []);
    for (const [name, prop] of Object.entries(schema.properties as Json)) {
      nullableOptionals(prop);
      if (!required.has(name)) schema.properties[name] = allowNull(prop);
    }
  }
  if (schema.items) nullableOptionals(schema.items);
  for (const k of ['oneOf', 'anyOf', 'allOf']) for (const s of schema[k] ?? []) nullableOptionals(s);
}

/**
 * The API's rule for request parameters, written into the document: an optional parameter sent as null
 * means "not given" (PATCH: "back to the default"). Applied to the schemas only requests use; a schema a
 * response also uses is left as is (its properties are what answers carry), and the property that refers
 * to it takes null instead.
 */
export function documentNullRequestFields(doc: Json): void {
  const schemas: Json = doc.components?.schemas ?? {};
  const requests: unknown[] = [];
  const responses: unknown[] = [];
  for (const item of Object.values(doc.paths as Json)) {
    for (const op of Object.values(item as Json) as Json[]) {
      if (!op || typeof op !== 'object') continue;
      if (op.requestBody) requests.push(op.requestBody);
      if (op.responses) responses.push(op.responses);
      if (op.callbacks) responses.push(op.callbacks);
    }
  }
  const answered = reachable(schemas, responses);
  for (const name of reachable(schemas, requests)) {
    if (!answered.has(name)) nullableOptionals(schemas[name]);
  }
  // Inline request bodies (no component of their own).
  for (const body of requests as Json[]) {
    for (const media of Object.values((body.content ?? {}) as Json) as Json[])
      if (media.schema && !media.schema.$ref) nullableOptionals(media.schema);
  }
}
