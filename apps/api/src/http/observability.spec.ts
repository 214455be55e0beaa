import { accessLogLevel } from './observability';

describe('accessLogLevel (the "request completed" line)', () => {
  it('logs a 503 with Retry-After (busy, a dependency away) at warn: a stranger turned away trips no error alert', () => {
    expect(accessLogLevel(503, '/showcase/shw_1/together/model.glb?items=1,2', true)).toBe('warn');
    expect(accessLogLevel(503, '/api/v2/showcases', true)).toBe('warn');
  });

  it('logs other 5xx at error, 4xx at warn, probes and beacons at debug, the rest at info', () => {
    expect(accessLogLevel(503, '/readyz', false)).toBe('error');
    expect(accessLogLevel(500, '/api/v2/showcases', false)).toBe('error');
    expect(accessLogLevel(500, '/api/v2/showcases', true)).toBe('error');
    expect(accessLogLevel(429, '/api/events', true)).toBe('warn');
    expect(accessLogLevel(404, '/nope', false)).toBe('warn');
    expect(accessLogLevel(204, '/api/events', false)).toBe('debug');
    expect(accessLogLevel(200, '/healthz?x=1', false)).toBe('debug');
    expect(accessLogLevel(200, '/api/v2/showcases', false)).toBe('info');
  });
});
