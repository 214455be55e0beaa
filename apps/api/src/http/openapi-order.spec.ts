import type { OpenAPIObject } from '@nestjs/swagger';
import { inDocumentOrder } from './openapi-order';

const ok = (schema: string) => ({
  200: { description: '', content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } } },
});

describe('inDocumentOrder', () => {
  it('lists operations by controller and declared method, and schemas where first used, whatever order they came in', () => {
    const doc = {
      openapi: '3.0.0',
      info: { title: 't', version: '1' },
      paths: {
        '/elsewhere': { get: { operationId: 'UnlistedController_x', responses: ok('Unused') } },
        '/api/v2/jobs/{jobId}': { get: { operationId: 'V2JobsController_get', responses: ok('V2JobDto') } },
        '/api/v2/jobs': { get: { operationId: 'V2JobsController_list', responses: ok('JobListDto') } },
        '/healthz': { get: { operationId: 'HealthController_healthz', responses: ok('AliveDto') } },
      },
      components: {
        schemas: {
          Extra: { type: 'object' },
          V2JobDto: { type: 'object' },
          JobListDto: { type: 'object', properties: { data: { type: 'array', items: { $ref: '#/components/schemas/JobSummaryDto' } } } },
          JobSummaryDto: { type: 'object' },
          AliveDto: { type: 'object' },
          Unused: { type: 'object' },
        },
      },
    } as unknown as OpenAPIObject;
    const out = inDocumentOrder(doc);
    expect(Object.keys(out.paths)).toEqual(['/healthz', '/api/v2/jobs', '/api/v2/jobs/{jobId}', '/elsewhere']);
    expect(Object.keys(out.components!.schemas!)).toEqual(['AliveDto', 'JobSummaryDto', 'JobListDto', 'V2JobDto', 'Unused', 'Extra']);
  });
});
