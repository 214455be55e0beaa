import { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type { AppConfig } from '@app/config';
import { InsufficientCreditsError, type ShowcaseRow } from '@app/persistence';
import { ApiError } from '../http/api-error';
import type { Principal } from '../http/api-key.guard';
import { ShowcasesService } from './showcases.service';

// Enough of a PNG for the type sniffing (signature + IHDR start); the service never decodes it.
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);
const MAX_ITEMS = 5;
const PICTURE_CENTS = 200;

/**
 * The upload pre-checks with in-memory stand-ins: what is read from the request, what reaches storage.
 * (The whole route, with real storage and billing, is in test/showcases.e2e-spec.ts.)
 */
function setup(opts: { have: number; balanceCents: number; answered?: boolean; files: number }) {
  const log: string[] = [];
  const stored = new Set<string>();
  const showcase = { id: 7, publicId: 'shw_test', presentationDefaults: {} } as unknown as ShowcaseRow;
  const repo = {
    findForOwner: async () => showcase,
    countItems: async () => opts.have,
    addItems: async (_s: unknown, items: unknown[]) => ({
      items: items.map((_, i) => ({ id: i + 1, jobId: `v2_${i}` })),
      chargedCents: items.length * PICTURE_CENTS,
    }),
  };
  const storage = {
    putStream: async (key: string, body: Readable) => {
      for await (const chunk of body) void chunk;
      stored.add(key);
      log.push(`stored ${key.split('/')[0]}`);
      return { key, size: PNG.length };
    },
    delete: async (key: string) => {
      stored.delete(key);
      log.push('deleted');
    },
  };
  const idempotency = {
    parseKey: (h: unknown) => h as string | undefined,
    answered: async (_u: string, key: string | undefined) => key !== undefined && (opts.answered ?? false),
    run: async (_u: string, _k: unknown, _f: string, status: number, fn: () => Promise<unknown>) => ({
      body: await fn(),
      status,
      replayed: false,
    }),
  };
  const pricing = { quote: () => ({ totalCents: PICTURE_CENTS }) };
  const admission = { admit: async () => 0, enqueue: async () => undefined };
  const accounts = { findUser: async () => ({ creditsCents: opts.balanceCents }) };
  const routes = { pipelineFor: () => 'still-image' };
  const config = { showcases: { maxItems: MAX_ITEMS, maxFilesPerRequest: 10, maxFileBytes: 1 << 20 } } as AppConfig;
  const svc = new ShowcasesService(
    repo as never,
    repo as never,
    {} as never,
    routes as never,
    idempotency as never,
    pricing as never,
    admission as never,
    storage as never,
    config,
    accounts as never,
    {} as never,
    {} as never,
    {} as never,
  );
  const req = {
    headers: {} as Record<string, string>,
    async *parts() {
      for (let i = 1; i <= opts.files; i++) {
        log.push(`read part ${i}`);
        yield { type: 'file', fieldname: 'files', filename: `${i}.png`, file: Readable.from([PNG]) };
      }
    },
  };
  return { svc, req: req as unknown as FastifyRequest & { headers: Record<string, string> }, log, stored };
}

const user: Principal = { keyType: 'user', userId: 'usr_1' } as Principal;
const owner: Principal = { keyType: 'owner', userId: 'usr_owner' } as Principal;

describe('ShowcasesService.addUploads: checks before storing', () => {
  it('refuses a key whose balance does not cover one picture before reading any part (402)', async () => {
    const t = setup({ have: 0, balanceCents: PICTURE_CENTS - 1, files: 2 });
    const e = await t.svc.addUploads(user, '7', t.req).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(InsufficientCreditsError);
    expect(e).toMatchObject({ balanceCents: PICTURE_CENTS - 1, neededCents: PICTURE_CENTS });
    expect(t.log).toEqual([]);
  });

  it('stores only the files the balance covers, then refuses and removes them (402)', async () => {
    const t = setup({ have: 0, balanceCents: 2 * PICTURE_CENTS, files: 3 });
    const e = await t.svc.addUploads(user, '7', t.req).catch((x: unknown) => x);
    expect(e).toMatchObject({ name: 'InsufficientCreditsError', neededCents: 3 * PICTURE_CENTS });
    expect(t.log).toEqual(['read part 1', 'stored uploads', 'read part 2', 'stored uploads', 'read part 3', 'deleted', 'deleted']);
    expect(t.stored.size).toBe(0);
  });

  it('refuses a full showcase before reading any part, for the owner key too (400 too_many_items)', async () => {
    const t = setup({ have: MAX_ITEMS, balanceCents: 0, files: 1 });
    const e = await t.svc.addUploads(owner, '7', t.req).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect(e).toMatchObject({ status: 400, code: 'too_many_items', param: 'files' });
    expect(t.log).toEqual([]);
  });

  it('stops at the first file the showcase has no room for', async () => {
    const t = setup({ have: MAX_ITEMS - 1, balanceCents: 0, files: 2 });
    const e = await t.svc.addUploads(owner, '7', t.req).catch((x: unknown) => x);
    expect(e).toMatchObject({ status: 400, code: 'too_many_items' });
    expect(t.log).toEqual(['read part 1', 'stored uploads', 'read part 2', 'deleted']);
  });

  it('adds what the balance and the room cover', async () => {
    const t = setup({ have: MAX_ITEMS - 2, balanceCents: 2 * PICTURE_CENTS, files: 2 });
    const out = await t.svc.addUploads(user, '7', t.req);
    expect(out.body).toMatchObject({ showcase_id: 7, credits_charged: 4 });
    expect(t.stored.size).toBe(2);
  });

  it('leaves a retry of an answered request to the replay, whatever the balance is now', async () => {
    const t = setup({ have: MAX_ITEMS, balanceCents: 0, answered: true, files: 1 });
    t.req.headers['idempotency-key'] = 'k1';
    // No pre-check refusal: the request reaches the idempotent run (which would replay the first answer).
    await t.svc.addUploads(user, '7', t.req).catch(() => undefined);
    expect(t.log.slice(0, 2)).toEqual(['read part 1', 'stored uploads']);
  });
});
