import { formatAge, parseArgs, render, sinceToIso, table, toRequest, UsageError } from './admin-cli';

describe('admin CLI arguments', () => {
  it('maps each command to its admin API request', () => {
    expect(toRequest(parseArgs(['users:create', '--email', 'a@b.co', '--name=Ada L', '--credits', '12.5', '--slots', '2']))).toEqual({
      method: 'POST',
      path: '/api/admin/users',
      body: { email: 'a@b.co', name: 'Ada L', credits: 12.5, showcase_slots: 2 },
    });
    expect(toRequest(parseArgs(['keys:create', 'usr_abc']))).toEqual({ method: 'POST', path: '/api/admin/users/usr_abc/keys' });
    expect(
      toRequest(
        parseArgs(['keys:create', 'usr_abc', '--name', 'shop', '--scope', 'widget', '--origins', 'https://a.example, https://b.example']),
      ),
    ).toEqual({
      method: 'POST',
      path: '/api/admin/users/usr_abc/keys',
      body: { name: 'shop', scope: 'widget', allowed_origins: ['https://a.example', 'https://b.example'] },
    });
    expect(toRequest(parseArgs(['keys:revoke', 'key_1']))).toEqual({ method: 'DELETE', path: '/api/admin/keys/key_1' });
    expect(toRequest(parseArgs(['users', 'delete', 'usr_abc']))).toEqual({ method: 'DELETE', path: '/api/admin/users/usr_abc' });
    expect(toRequest(parseArgs(['credits:grant', 'usr_a', '3.3', '--reason', 'promo']))).toEqual({
      method: 'POST',
      path: '/api/admin/users/usr_a/credits',
      body: { amount: 3.3, reason: 'promo' },
    });
    expect(toRequest(parseArgs(['usage', 'usr_a', '--limit', '5']))).toEqual({
      method: 'GET',
      path: '/api/admin/users/usr_a/usage?limit=5',
    });
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

describe('admin CLI jobs, users and queue', () => {
  const now = Date.parse('2026-03-01T12:00:00Z');

  it('maps the two-word commands and their filters', () => {
    expect(toRequest(parseArgs(['jobs', 'list', '--status', 'failed', '--user', 'usr_a', '--since', '24h', '--limit=10']), now)).toEqual({
      method: 'GET',
      path: '/api/admin/jobs?status=failed&user=usr_a&since=2026-02-28T12%3A00%3A00.000Z&limit=10',
    });
    expect(toRequest(parseArgs(['jobs', 'list', '--since', '2026-02-01T00:00:00Z']))).toEqual({
      method: 'GET',
      path: '/api/admin/jobs?since=2026-02-01T00%3A00%3A00.000Z',
    });
    expect(toRequest(parseArgs(['jobs', 'retry', 'v2_abc']))).toEqual({ method: 'POST', path: '/api/admin/jobs/v2_abc/retry' });
    expect(toRequest(parseArgs(['jobs', 'cancel', 'api_x/y']))).toEqual({ method: 'POST', path: '/api/admin/jobs/api_x%2Fy/cancel' });
    expect(toRequest(parseArgs(['users', 'list', '--json']))).toEqual({ method: 'GET', path: '/api/admin/users' });
    expect(toRequest(parseArgs(['queue']))).toEqual({ method: 'GET', path: '/api/admin/queue' });
    expect(parseArgs(['--json', 'jobs', 'list']).flags).toEqual({ json: 'true' });
  });

  it('refuses a bad --since, a missing job id and an unknown subcommand', () => {
    expect(() => sinceToIso('yesterday')).toThrow(/--since must be/);
    expect(() => sinceToIso('12')).toThrow(/--since must be/);
    expect(sinceToIso('90s', now)).toBe('2026-03-01T11:58:30.000Z');
    expect(() => toRequest(parseArgs(['jobs', 'retry']))).toThrow(/jobs retry needs <job_id>/);
    expect(() => toRequest(parseArgs(['jobs', 'purge']))).toThrow(/unknown command "jobs purge"/);
    expect(() => toRequest(parseArgs(['queue', 'extra']))).toThrow(UsageError);
  });

  it('prints lists and the queue as tables', () => {
    expect(
      table(
        ['id', 'status'],
        [
          ['v2_a', 'failed'],
          ['v2_bbbb', null],
        ],
      ),
    ).toBe('ID       STATUS\nv2_a     failed\nv2_bbbb  -');
    const job = {
      id: 'v2_a',
      kind: 'v1.convert',
      status: 'failed',
      user_id: 'usr_a',
      progress: 40.4,
      created_at: '2026-03-01T10:00:00.000Z',
      finished_at: null,
      error: { code: 'cancelled', message: 'cancelled' },
    };
    const list = render('jobs list', { data: [job], has_more: true })!;
    expect(list.split('\n')[0]).toMatch(/^ID\s+KIND\s+STATUS\s+USER\s+PROGRESS\s+CREATED\s+FINISHED\s+ERROR$/);
    expect(list).toContain('v2_a  v1.convert  failed  usr_a  40%       2026-03-01 10:00  -         cancelled: cancelled');
    expect(list).toMatch(/more jobs/);
    expect(render('jobs list', { data: [], has_more: false })).toBe('no jobs');
    const q = render('queue', {
      driver: 'bull',
      queue: { waiting: 2, active: 1, delayed: 0, failed: 0 },
      jobs: { queued: 2 },
      oldest_waiting: { job_id: 'v2_q', age_s: 3725 },
    })!;
    expect(q).toContain('queue (bull)');
    expect(q).toMatch(/waiting\s+2/);
    expect(q).toContain('oldest waiting: v2_q, 1h 2m');
    expect(render('users:create', { id: 'usr_a' })).toBeNull();
    expect(formatAge(0)).toBe('0s');
    expect(formatAge(86_400 + 5)).toBe('1d');
  });
});

describe('admin CLI users invite', () => {
  it('invites an email (created when missing), as owner with --owner, and prints the link first', () => {
    expect(toRequest(parseArgs(['users', 'invite', 'ada@example.com']))).toEqual({
      method: 'POST',
      path: '/api/admin/invites',
      body: { email: 'ada@example.com' },
    });
    expect(toRequest(parseArgs(['users', 'invite', 'me@example.com', '--owner', '--name', 'Me']))).toEqual({
      method: 'POST',
      path: '/api/admin/invites',
      body: { email: 'me@example.com', role: 'owner', name: 'Me' },
    });
    expect(() => toRequest(parseArgs(['users', 'invite']))).toThrow('users invite needs <email>');
    const out = render('users invite', {
      invite_url: 'http://x/console/invite?token=t',
      email: 'me@example.com',
      role: 'owner',
      expires_at: '2026-01-08T00:00:00.000Z',
    })!;
    expect(out.split('\n')[0]).toBe('http://x/console/invite?token=t');
    expect(out).toContain('as owner');
  });
});
