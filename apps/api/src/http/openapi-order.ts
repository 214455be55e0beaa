import type { Type } from '@nestjs/common';
import { DECORATORS, type OpenAPIObject } from '@nestjs/swagger';
import { AdminUserKeysController } from '../accounts/admin-user-keys.controller';
import { AdminController } from '../accounts/admin.controller';
import { V2AccountController } from '../accounts/v2-account.controller';
import { V2KeysController } from '../accounts/v2-keys.controller';
import { AnimatedArController } from '../animated-ar/animated-ar.controller';
import { ConsoleInviteController } from '../console/console-invite.controller';
import { HealthController } from '../health/health.controller';
import { AdminJobsController } from '../jobs/admin-jobs.controller';
import { V1Controller } from '../jobs/v1.controller';
import { V2JobsController } from '../jobs/v2-jobs.controller';
import { WebhookDeliveriesController } from '../jobs/webhook-deliveries.controller';
import { AssetsController } from '../public-pages/assets.controller';
import { FilesController } from '../public-pages/files.controller';
import { ShowcasesController } from '../showcases/showcases.controller';

type Json = Record<string, any>;

/**
 * The order docs/openapi.json lists the API in (and so the generated client): controller by controller, as
 * it always has. Swagger lists routes module by module, so without this, moving a controller to another
 * feature module would reshuffle the published document. A controller not listed comes last.
 */
const DOCUMENT_ORDER: readonly Type[] = [
  HealthController,
  V1Controller,
  FilesController,
  AssetsController,
  AdminController,
  V2AccountController,
  V2KeysController,
  ShowcasesController,
  V2JobsController,
  AnimatedArController,
  AdminJobsController,
  ConsoleInviteController,
  WebhookDeliveriesController,
  AdminUserKeysController,
];

const methodsOf = (c: Type) => Object.getOwnPropertyNames(c.prototype);
const modelNames = (types: unknown): string[] =>
  (Array.isArray(types) ? types : [types])
    .flatMap((t) => (Array.isArray(t) ? t : [t]))
    .filter((t): t is Type => typeof t === 'function')
    .map((t) => t.name);
const refsIn = (x: unknown): string[] =>
  [...JSON.stringify(x ?? null).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!);

/**
 * Paths and schemas as Swagger lists them for controllers registered in DOCUMENT_ORDER: operations by
 * controller, then method as declared (a path is listed where its first operation is); a schema where it is
 * first explored (a controller's own @ApiResponse and @ApiExtraModels, then each method's body and
 * parameters, then its responses; nested schemas before the ones using them); unreached schemas last.
 */
export function inDocumentOrder(doc: OpenAPIObject): OpenAPIObject {
  const ops = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item as Json).map(([method, op]: [string, Json]) => {
      const id = String(op.operationId ?? '');
      const c = DOCUMENT_ORDER.findIndex((k) => id.startsWith(`${k.name}_`));
      return {
        path,
        method,
        op,
        c: c < 0 ? DOCUMENT_ORDER.length : c,
        m: c < 0 ? 0 : methodsOf(DOCUMENT_ORDER[c]!).indexOf(id.slice(DOCUMENT_ORDER[c]!.name.length + 1)),
      };
    }),
  );
  ops.sort((a, b) => a.c - b.c || a.m - b.m);
  const paths: Json = {};
  for (const o of ops) (paths[o.path] ??= {})[o.method] = o.op;

  const schemas: Json = doc.components?.schemas ?? {};
  const ordered: Json = {};
  const seen = new Set<string>();
  const add = (name: string): void => {
    if (seen.has(name) || !(name in schemas)) return;
    seen.add(name);
    refsIn(schemas[name]).forEach(add);
    ordered[name] = schemas[name];
  };
  DOCUMENT_ORDER.forEach((c, i) => {
    modelNames(Object.values<Json>(Reflect.getMetadata(DECORATORS.API_RESPONSE, c) ?? {}).map((r) => r.type)).forEach(add);
    modelNames(Reflect.getMetadata(DECORATORS.API_EXTRA_MODELS, c)).forEach(add);
    for (const o of ops.filter((x) => x.c === i)) {
      modelNames(Reflect.getMetadata(DECORATORS.API_EXTRA_MODELS, c.prototype[methodsOf(c)[o.m]!])).forEach(add);
      refsIn([o.op.parameters, o.op.requestBody]).forEach(add);
      refsIn(o.op.responses).forEach(add);
    }
  });
  ops.filter((x) => x.c === DOCUMENT_ORDER.length).forEach((o) => refsIn(o.op).forEach(add));
  Object.keys(schemas).forEach(add);
  return { ...doc, paths, components: { ...doc.components, schemas: ordered } };
}
