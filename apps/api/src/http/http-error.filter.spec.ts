import { Logger } from '@nestjs/common';
import type { ArgumentsHost } from '@nestjs/common';
import { ShowcaseGoneError } from '@app/persistence';
import { BuildSlots } from '../walls/build-slots';
import { HttpErrorFilter } from './http-error.filter';

/** Runs `exception` through the filter; the answer sent and what was logged, by level. */
function filter(exception: unknown) {
  const sent: { status?: number; headers: Record<string, string>; body?: any } = { headers: {} };
  const reply = {
    status(s: number) {
      sent.status = s;
      return reply;
    },
    header(k: string, v: string) {
      sent.headers[k] = v;
      return reply;
    },
    send(b: unknown) {
      sent.body = b;
      return reply;
    },
  };
  const host = { switchToHttp: () => ({ getResponse: () => reply, getRequest: () => ({ id: 'req-1' }) }) } as unknown as ArgumentsHost;
  const logs: Record<'warn' | 'error' | 'log', string[]> = { warn: [], error: [], log: [] };
  const spies = (['warn', 'error', 'log'] as const).map((level) =>
    jest.spyOn(Logger.prototype, level).mockImplementation((...args: unknown[]) => void logs[level].push(String(args[0]))),
  );
  try {
    new HttpErrorFilter().catch(exception, host);
  } finally {
    for (const s of spies) s.mockRestore();
  }
  return { sent, logs };
}

describe('HttpErrorFilter: 503s logged as what they are', () => {
  it("logs a full build queue (503 busy) as busy at warn level, never as the database's outage", async () => {
    const slots = new BuildSlots(() => 1, 0);
    let open!: () => void;
    const first = slots.run(() => new Promise<void>((r) => (open = r)));
    const busy = await slots.run(async () => undefined).catch((e: unknown) => e);
    open();
    await first;
    const { sent, logs } = filter(busy);
    expect(sent.status).toBe(503);
    expect(sent.headers['retry-after']).toBe('5');
    expect(sent.body.error).toMatchObject({ code: 'busy', request_id: 'req-1' });
    expect(logs.error).toEqual([]);
    expect(logs.warn).toHaveLength(1);
    expect(logs.warn[0]).toMatch(/^request req-1: 503 busy: too many gallery walls/);
    expect(logs.warn.join('\n')).not.toMatch(/database/);
  });

  it('still logs a database outage as one (warn, 503 service_unavailable), and a bug at error level with its stack', () => {
    const down = filter(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }));
    expect(down.sent.status).toBe(503);
    expect(down.sent.body.error.code).toBe('service_unavailable');
    expect(down.logs.warn).toEqual([expect.stringMatching(/^request req-1: database unavailable: connect ECONNREFUSED/)]);
    expect(down.logs.error).toEqual([]);
    const bug = filter(new TypeError("Cannot read properties of undefined (reading 'id')"));
    expect(bug.sent.status).toBe(500);
    expect(bug.logs.error).toEqual([expect.stringMatching(/^request req-1 failed: TypeError: Cannot read properties/)]);
  });
});

describe('HttpErrorFilter: vanished parents', () => {
  it('answers a showcase deleted while a request added to it with 404, logging nothing', () => {
    const { sent, logs } = filter(new ShowcaseGoneError(7));
    expect(sent.status).toBe(404);
    expect(sent.body.error).toMatchObject({ type: 'not_found', code: 'resource_missing', message: 'showcase 7 not found' });
    expect(logs.error).toEqual([]);
  });
});
