import type { ExecutionContext } from '@nestjs/common';
import { Controller, Get } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { AppConfig } from '@app/config';
import type { ApiKeyRow } from '@app/persistence';
import { hashApiKey } from '@app/billing';
import { ApiKeyGuard } from '../api-key.guard';
import { AllowScope, normaliseOrigin, originAllowed, scopeAllows } from './key-scope';

describe('key scopes', () => {
  it('lets full keys call every route, narrower ones only routes that name their scope (widget is no read_only)', () => {
    expect(scopeAllows('full', [])).toBe(true);
    expect(scopeAllows('full', ['read_only'])).toBe(true);
    expect(scopeAllows('widget', ['read_only'])).toBe(false);
    expect(scopeAllows('widget', ['widget'])).toBe(true);
    expect(scopeAllows('widget', ['read_only', 'widget'])).toBe(true);
    expect(scopeAllows('widget', [])).toBe(false);
    expect(scopeAllows('read_only', ['widget'])).toBe(false);
    expect(scopeAllows('read_only', ['read_only', 'widget'])).toBe(true);
    expect(scopeAllows('read_only', [])).toBe(false);
  });

  it('normalises origins as browsers send them and refuses anything that is not one', () => {
    expect(normaliseOrigin('https://Shop.Example.com/')).toBe('https://shop.example.com');
    expect(normaliseOrigin('https://shop.example.com:443')).toBe('https://shop.example.com');
    expect(normaliseOrigin('http://localhost:8080')).toBe('http://localhost:8080');
    for (const bad of [
      'https://shop.example.com/path',
      'https://*.example.com',
      'ftp://x.example',
      'shop.example.com',
      'https://u:p@x.example',
      'https://x.example?q',
      'null',
      '',
    ]) {
      expect(normaliseOrigin(bad)).toBeNull();
    }
  });

  it('matches the Origin header against the allowed list, normalised; a missing header never matches', () => {
    expect(originAllowed('https://SHOP.example.com', ['https://shop.example.com'])).toBe(true);
    expect(originAllowed('https://shop.example.com.evil.example', ['https://shop.example.com'])).toBe(false);
    expect(originAllowed('http://shop.example.com', ['https://shop.example.com'])).toBe(false);
    expect(originAllowed(undefined, ['https://shop.example.com'])).toBe(false);
    expect(originAllowed('null', ['https://shop.example.com'])).toBe(false);
  });
});

@Controller('t')
class RoutesForTest {
  @Get('open') @AllowScope('read_only') open() {}
  @Get('own') @AllowScope('read_only', 'widget') own() {}
  @Get('convert') @AllowScope('widget') convert() {}
  @Get('unmarked') unmarked() {}
}

describe('ApiKeyGuard scope check', () => {
  const keys: Record<string, Partial<ApiKeyRow>> = {
    sk_live_full: { id: 'key_f', userId: 'usr_a', prefix: 'sk_live_f', scope: 'full', allowedOrigins: [] },
    sk_live_read: { id: 'key_r', userId: 'usr_a', prefix: 'sk_live_r', scope: 'read_only', allowedOrigins: [] },
    sk_live_widget: { id: 'key_w', userId: 'usr_a', prefix: 'sk_live_w', scope: 'widget', allowedOrigins: ['https://shop.example.com'] },
  };
  const byHash = new Map(Object.entries(keys).map(([k, row]) => [hashApiKey(k), row]));
  const cache = { find: async (hash: string) => byHash.get(hash) ?? null };
  const limits: string[] = [];
  const rateLimits = { check: async (p: { scope: string }) => void limits.push(p.scope) };
  const guard = new ApiKeyGuard(
    { ownerApiKey: 'owner-key-of-the-unit-test' } as AppConfig,
    cache as never,
    rateLimits as never,
    new Reflector(),
    { principalFor: async () => null } as never,
  );

  async function call(handler: keyof RoutesForTest, key: string, origin?: string) {
    const req = {
      headers: { 'x-api-key': key, ...(origin ? { origin } : {}) },
      method: 'GET',
      url: `/t/${handler}`,
      routeOptions: { url: `/t/${handler}` },
    };
    const ctx = {
      switchToHttp: () => ({ getRequest: () => req, getResponse: () => ({}) }),
      getHandler: () => RoutesForTest.prototype[handler],
      getClass: () => RoutesForTest,
    } as unknown as ExecutionContext;
    try {
      return await guard.canActivate(ctx);
    } catch (e) {
      return (e as { code?: string }).code;
    }
  }

  it('needs a full key on unmarked routes, and lets wider scopes through marked ones', async () => {
    expect(await call('unmarked', 'sk_live_full')).toBe(true);
    expect(await call('unmarked', 'owner-key-of-the-unit-test')).toBe(true);
    expect(await call('unmarked', 'sk_live_read')).toBe('insufficient_scope');
    expect(await call('unmarked', 'sk_live_widget', 'https://shop.example.com')).toBe('insufficient_scope');
    expect(await call('open', 'sk_live_read')).toBe(true);
    expect(await call('open', 'sk_live_full')).toBe(true);
    expect(await call('convert', 'sk_live_read')).toBe('insufficient_scope');
    expect(await call('convert', 'sk_live_widget', 'https://shop.example.com')).toBe(true);
    // A widget key sits in public HTML: the account's reads are closed to it, the routes that name it open.
    expect(await call('open', 'sk_live_widget', 'https://shop.example.com')).toBe('insufficient_scope');
    expect(await call('own', 'sk_live_widget', 'https://shop.example.com')).toBe(true);
    expect(await call('own', 'sk_live_read')).toBe(true);
  });

  it("checks a widget key's Origin on every route, before its rate limit is spent", async () => {
    limits.length = 0;
    expect(await call('own', 'sk_live_widget')).toBe('origin_not_allowed');
    expect(await call('convert', 'sk_live_widget', 'https://other.example.com')).toBe('origin_not_allowed');
    expect(limits).toEqual([]);
    expect(await call('own', 'sk_live_widget', 'https://shop.example.com')).toBe(true);
    expect(limits).toEqual(['widget']);
  });
});
