import type { AppConfig } from '@app/config';
import { DEFAULT_ROUTES, resolveRoutes } from './job-routes';

const config = (pipelines: Record<string, string>) => ({ plugins: { pipelines } }) as unknown as AppConfig;

describe('resolveRoutes', () => {
  it('routes showcase pictures to the pipeline that also makes their thumbnails, other pictures to still-image', () => {
    expect(resolveRoutes(config({}))).toEqual(DEFAULT_ROUTES);
    expect(DEFAULT_ROUTES['showcase.picture']).toBe('showcase-picture');
    expect(DEFAULT_ROUTES['v2.picture']).toBe('still-image');
  });

  it("keeps an operator's v2.picture route for showcase pictures too, unless they are routed themselves", () => {
    expect(resolveRoutes(config({ 'v2.picture': 'my-still' }))['showcase.picture']).toBe('my-still');
    const both = resolveRoutes(config({ 'v2.picture': 'my-still', 'showcase.picture': 'my-showcase' }));
    expect([both['v2.picture'], both['showcase.picture']]).toEqual(['my-still', 'my-showcase']);
    expect(resolveRoutes(config({ 'showcase.picture': 'still-image' }))['showcase.picture']).toBe('still-image');
  });

  it('refuses a job kind it does not know, naming the known ones', () => {
    expect(() => resolveRoutes(config({ 'v3.picture': 'x' }))).toThrow(
      'config: "pipelines" names unknown job kind "v3.picture" (known: v1.convert, v2.picture, showcase.picture, showcase.variants, showcase.wall, v2.animated-ar, callback)',
    );
  });
});
