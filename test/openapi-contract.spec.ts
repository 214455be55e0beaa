import { loadConfig } from '@app/config';
import { createOpenApiDocument } from '../apps/api/src/http/openapi.document';
import { createContractCheck, type ContractCheck } from './support/openapi-contract';
import { tempDir } from './support/app-process';

/** The contract check the e2e suites run on every JSON answer (test/support/openapi-contract.ts), and the document's own promises. */
let doc: Record<string, any>;
let contract: ContractCheck;
const JSON_CT = 'application/json; charset=utf-8';
const error = (type: string, code: string) => ({ error: { type, code, message: 'm', request_id: 'req_1' } });

beforeAll(async () => {
  doc = await createOpenApiDocument(
    loadConfig({ DATA_DIR: tempDir(), OWNER_API_KEY: 'owner-key-for-openapi-spec', PUBLIC_BASE_URL: 'http://localhost:3000' }),
  );
  contract = createContractCheck(doc);
});

describe('OpenAPI document', () => {
  it('gives every operation a security requirement, a JSON success schema (or a documented bodiless answer) and the error object on 4xx/5xx', () => {
    for (const [path, item] of Object.entries(doc.paths as Record<string, any>)) {
      for (const [method, op] of Object.entries(item as Record<string, any>)) {
        expect({ path, method, security: op.security ?? doc.security }).toEqual({ path, method, security: expect.any(Array) });
        const statuses = Object.keys(op.responses);
        expect(statuses.some((s) => s.startsWith('2'))).toBe(true);
        for (const s of statuses.filter((x) => Number(x) >= 400 && x !== '416' && !(path === '/readyz' && x === '503'))) {
          expect({ path, method, s, schema: op.responses[s].content?.['application/json']?.schema }).toEqual({
            path,
            method,
            s,
            schema: { $ref: '#/components/schemas/ErrorResponseDto' },
          });
        }
        // The public ones (no key, no rate-limit answer: a beacon over the rate is taken and not counted) aside.
        if (path.startsWith('/api/') && path !== '/api/v1/widget.js' && path !== '/api/events')
          expect(statuses).toEqual(expect.arrayContaining(['400', '401', '429', '500']));
        if (path === '/api/events') expect(statuses).toEqual(expect.arrayContaining(['204', '400', '413', '500']));
      }
    }
  });

  it('documents the signed callbacks of v1 convert and animated AR, with the Standard Webhooks headers', () => {
    for (const [path, schema] of [
      ['/api/v1/convert', 'V1CallbackDto'],
      ['/api/v2/animated-ar', 'V2JobDto'],
    ]) {
      const cb = doc.paths[path].post.callbacks.jobFinished['{$request.body#/callback_url}'].post;
      expect(cb.requestBody.content['application/json'].schema).toEqual({ $ref: `#/components/schemas/${schema}` });
      expect(cb.parameters.filter((p: any) => p.in === 'header' && p.required).map((p: any) => p.name)).toEqual([
        'webhook-id',
        'webhook-timestamp',
        'webhook-signature',
      ]);
    }
  });
});

describe('contract check', () => {
  it('accepts a documented answer, and an error object on an unknown route', () => {
    expect(() => contract.check('POST', '/api/v1/convert', 202, JSON_CT, { job_id: 'api_x', status: 'queued' })).not.toThrow();
    expect(() =>
      contract.check('GET', '/api/v2/animated-ar/options?x=1', 401, JSON_CT, error('authentication_error', 'invalid_api_key')),
    ).not.toThrow();
    expect(() => contract.check('GET', '/nope', 404, JSON_CT, error('not_found', 'route_not_found'))).not.toThrow();
  });

  it('skips answers that are not JSON', () => {
    expect(() => contract.check('GET', '/files/models/api_a/model.glb', 200, 'model/gltf-binary', 'glTF')).not.toThrow();
    expect(() => contract.check('GET', '/embed/x', 200, 'text/html; charset=utf-8', '<html>')).not.toThrow();
  });

  it('fails on a schema mismatch, naming the field', () => {
    expect(() => contract.check('POST', '/api/v1/convert', 202, JSON_CT, { job_id: 42, status: 'queued' })).toThrow(
      /POST \/api\/v1\/convert -> 202.*\n.*\/job_id must be string/,
    );
    expect(() => contract.check('GET', '/api/v2/me', 200, JSON_CT, { id: 'usr_x' })).toThrow(/must have required property 'email'/);
    expect(() => contract.check('POST', '/api/v1/convert', 400, JSON_CT, { message: 'bad' })).toThrow(
      /must have required property 'error'/,
    );
  });

  it('checks the request bodies the service accepted against the documented request body, not the refused ones', () => {
    const accepted = { job_id: 'api_x', status: 'queued' };
    const req = (body: unknown) => ({ contentType: 'application/json', body });
    expect(() =>
      contract.check(
        'POST',
        '/api/v1/convert',
        202,
        JSON_CT,
        accepted,
        req({ image_url: 'https://example.com/a.jpg', aspect_ratio: '16:9' }),
      ),
    ).not.toThrow();
    expect(() => contract.check('POST', '/api/v1/convert', 202, JSON_CT, accepted, req({ image_url: 42 }))).toThrow(
      /accepted a request body that does not match .*\n.*\/image_url must be string/,
    );
    // A refused request is deliberate bad input: its body is not held to the document.
    expect(() =>
      contract.check('POST', '/api/v1/convert', 400, JSON_CT, error('invalid_request_error', 'parameter_invalid'), req({ image_url: 42 })),
    ).not.toThrow();
  });

  it('fails on an undocumented status or route', () => {
    expect(() => contract.check('GET', '/api/v2/me', 418, JSON_CT, {})).toThrow(/status 418 is not documented for GET \/api\/v2\/me/);
    expect(() => contract.check('PUT', '/api/v2/me', 200, JSON_CT, {})).toThrow(/no operation in the document matches PUT \/api\/v2\/me/);
  });
});
