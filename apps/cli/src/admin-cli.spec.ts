import { parseArgs, toRequest, UsageError } from './admin-cli';

describe('admin CLI arguments', () => {
  it('maps each command to its admin API request', () => {
    expect(toRequest(parseArgs(['users:create', '--email', 'a@b.co', '--name=Ada L', '--credits', '12.5', '--slots', '2']))).toEqual({
      method: 'POST', path: '/api/admin/users', body: { email: 'a@b.co', name: 'Ada L', credits: 12.5, showcase_slots: 2 },
    });
    expect(toRequest(parseArgs(['keys:create', 'usr_abc']))).toEqual({ method: 'POST', path: '/api/admin/users/usr_abc/keys' });
    expect(toRequest(parseArgs(['keys:revoke', 'key_1']))).toEqual({ method: 'DELETE', path: '/api/admin/keys/key_1' });
    expect(toRequest(parseArgs(['credits:grant', 'usr_a', '3.3', '--reason', 'promo']))).toEqual({
      method: 'POST', path: '/api/admin/users/usr_a/credits', body: { amount: 3.3, reason: 'promo' },
    });
    expect(toRequest(parseArgs(['usage', 'usr_a', '--limit', '5']))).toEqual({ method: 'GET', path: '/api/admin/users/usr_a/usage?limit=5' });
    expect(toRequest(parseArgs(['usage', '../x']))).toEqual({ method: 'GET', path: '/api/admin/users/..%2Fx/usage' });
    expect(parseArgs([]).command).toBe('help');
  });

  it('refuses unknown commands, unknown options and missing arguments', () => {
    expect(() => toRequest(parseArgs(['users:delete']))).toThrow(UsageError);
    expect(() => parseArgs(['usage', '--verbose'])).toThrow(/unknown option --verbose/);
    expect(() => toRequest(parseArgs(['credits:grant', 'usr_a']))).toThrow(/needs <user_id> <amount>/);
    expect(() => toRequest(parseArgs(['credits:grant', 'usr_a', 'ten']))).toThrow(/must be a number/);
    expect(() => toRequest(parseArgs(['users:create']))).toThrow(/--email/);
  });
});
