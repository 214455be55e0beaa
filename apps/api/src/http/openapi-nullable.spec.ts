import { documentNullRequestFields } from './openapi-nullable';

describe('documentNullRequestFields', () => {
  it('lets the optional fields of request-only schemas take null, and leaves what answers use alone', () => {
    const doc = {
      paths: {
        '/things': {
          post: {
            requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/CreateThing' } } } },
            responses: { 201: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } } },
          },
        },
      },
      components: {
        schemas: {
          CreateThing: {
            type: 'object',
            required: ['name'],
            properties: {
              name: { type: 'string' },
              note: { type: 'string', description: 'free text' },
              frame: { description: 'a frame', allOf: [{ $ref: '#/components/schemas/Frame' }] },
              style: { oneOf: [{ type: 'string' }, { $ref: '#/components/schemas/Frame' }] },
            },
          },
          Thing: { type: 'object', properties: { frame: { $ref: '#/components/schemas/Frame' } } },
          Frame: { type: 'object', properties: { width: { type: 'number' } } },
        },
      },
    };
    documentNullRequestFields(doc);
    const p = doc.components.schemas.CreateThing.properties as Record<string, any>;
    expect(p.name).toEqual({ type: 'string' });
    expect(p.note).toEqual({ type: 'string', description: 'free text', nullable: true });
    expect(p.frame).toEqual({
      description: 'a frame',
      anyOf: [{ $ref: '#/components/schemas/Frame' }, { type: 'string', nullable: true, enum: [null] }],
    });
    expect(p.style.oneOf).toEqual([
      { type: 'string' },
      { $ref: '#/components/schemas/Frame' },
      { type: 'string', nullable: true, enum: [null] },
    ]);
    // Frame is also in an answer: its own fields stay as answers carry them.
    expect(doc.components.schemas.Frame.properties.width).toEqual({ type: 'number' });
  });
});
