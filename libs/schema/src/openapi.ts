import { z } from 'zod';

type Json = Record<string, any>;

/**
 * Every request schema the API documents, by component name. A schema registers itself where it is
 * declared ({@link requestSchema}); the OpenAPI document takes them all from here.
 */
export const requestSchemas = z.registry<{ id: string }>();

/**
 * Names a request schema: it becomes `#/components/schemas/<id>` in OpenAPI, and nested schemas that
 * are themselves registered are referenced, not repeated.
 *
 * @example
 * export const CreateKeyBody = requestSchema('CreateKeyRequestDto', z.strictObject({ name: text(100).nullish() }));
 */
export function requestSchema<S extends z.ZodType>(id: string, schema: S): S {
  requestSchemas.add(schema, { id });
  return schema;
}

/** Only null, in OpenAPI 3.0 terms (`nullable` needs a `type`). */
const NULL_ONLY = { type: 'string', nullable: true, enum: [null] };

/** OpenAPI 3.0 has no `type: null`: a nullable schema without a type (a `$ref`, a choice) gets null as one more choice. */
function fixNullable(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(fixNullable);
  if (!node || typeof node !== 'object') return;
  const o = node as Json;
  delete o.$id;
  // zod leaves `default` out of a transformed field's input schema: a field says it as documentedDefault.
  if (o.documentedDefault !== undefined) {
    o.default = o.documentedDefault;
    delete o.documentedDefault;
  }
  for (const v of Object.values(o)) fixNullable(v);
  // A field that also takes a name as shorthand for an object ({@link shorthandOf}): say both forms.
  if (Array.isArray(o.shorthand)) {
    const { shorthand, description, nullable, example, ...rest } = o;
    // zod writes a described reference as a one-element allOf: in a choice the reference alone says it.
    const object = Array.isArray(rest.allOf) && rest.allOf.length === 1 && Object.keys(rest).length === 1 ? rest.allOf[0] : rest;
    for (const k of Object.keys(o)) delete o[k];
    Object.assign(o, {
      ...(description !== undefined ? { description } : {}),
      ...(nullable ? { nullable } : {}),
      oneOf: [{ type: 'string', enum: shorthand }, object],
      ...(example !== undefined ? { example } : {}),
    });
  }
  if (o.nullable && o.type === undefined) {
    delete o.nullable;
    if (Array.isArray(o.anyOf)) o.anyOf.push(NULL_ONLY);
    else if (Array.isArray(o.oneOf)) o.oneOf.push(NULL_ONLY);
    else if (Array.isArray(o.allOf) && o.allOf.length === 1) {
      o.anyOf = [o.allOf[0], NULL_ONLY];
      delete o.allOf;
    } else if (o.$ref) {
      o.anyOf = [{ $ref: o.$ref }, NULL_ONLY];
      delete o.$ref;
    }
  }
}

/** The JSON Schema of one unregistered zod schema (a query parameter) as OpenAPI 3.0 writes it. */
export function toOpenApi(schema: z.ZodType): Json {
  const out = z.toJSONSchema(schema, { target: 'openapi-3.0', io: 'input', unrepresentable: 'any' }) as Json;
  fixNullable(out);
  // A number read from query text: the text's pattern is how it is parsed, not part of the integer's contract.
  if (out.type === 'integer') delete out.pattern;
  return out;
}

/** `components.schemas` entries for every registered request schema. */
export function requestComponents(registry: z.core.$ZodRegistry<{ id: string }> = requestSchemas): Record<string, Json> {
  const { schemas } = z.toJSONSchema(registry, {
    target: 'openapi-3.0',
    io: 'input',
    unrepresentable: 'any',
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, Json> };
  for (const s of Object.values(schemas)) fixNullable(s);
  return schemas;
}

/** The reference a route's requestBody uses for a registered schema. */
export function schemaRef(schema: z.ZodType, registry: z.core.$ZodRegistry<{ id: string }> = requestSchemas): { $ref: string } {
  const id = registry.get(schema)?.id;
  if (!id) throw new Error('schema: this request schema is not registered; declare it with requestSchema(id, schema)');
  return { $ref: `#/components/schemas/${id}` };
}
