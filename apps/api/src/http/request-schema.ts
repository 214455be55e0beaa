import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiQuery } from '@nestjs/swagger';
import { schemaRef, toOpenApi, type z } from '@app/schema';

/**
 * Documents a route's JSON body with the request schema that validates it (the service calls
 * `parseInput` with the same object), as `#/components/schemas/<id>`.
 *
 * @example
 * @Post() @JsonBody(CreateKeyBody) create(@Body() body: unknown) { return this.keys.create(parseInput(CreateKeyBody, body)); }
 */
export function JsonBody(schema: z.ZodType, opts: { required?: boolean; description?: string } = {}): MethodDecorator {
  return ApiBody({ schema: schemaRef(schema), ...opts });
}

/**
 * Documents a route's query parameters from the object schema that validates them: one parameter per
 * property, required unless optional, with its description (`.describe()`) and JSON Schema.
 */
export function QueryParams(schema: z.ZodObject): MethodDecorator {
  return applyDecorators(
    ...Object.entries(schema.shape).map(([name, field]) => {
      const f = field as z.ZodType;
      const { description, ...json } = toOpenApi(f);
      return ApiQuery({ name, required: !f.safeParse(undefined).success, schema: json, ...(description ? { description } : {}) });
    }),
  );
}
