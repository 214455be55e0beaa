import type { CliConfig } from '@app/config';

export const USAGE = `Usage: npm run admin -- <command> [options]

Commands (all call the admin API with the owner key):
  users:create --email <email> [--name <name>] [--credits <n>] [--slots <n>]
  keys:create <user_id> [--name <name>] [--scope full|read_only|widget] [--origins <o1,o2>]
                                        create an API key (shown once); --origins: a widget key's
                                        allowed origins, comma-separated (https://shop.example.com)
  keys:revoke <key_id>
  credits:grant <user_id> <amount> [--reason <text>]
  usage <user_id> [--limit <n>] [--before <entry_id>]
  users list [--limit <n>]
  users invite <email> [--owner] [--name <name>]
                                        a console invite link (single use, 7 days); creates the user when
                                        missing. --owner: the operator's own console account (admin pages)
  users delete <user_id>                delete a user with all their data (jobs, files, showcases, keys);
                                        their ledger entries are kept, anonymised
  jobs list [--status <status>] [--user <user_id>] [--since <when>] [--limit <n>]
                                        newest first; --since takes an ISO date-time or an age (30m, 24h, 7d)
  jobs retry <job_id>                   run a failed job again (its refunded charge is not taken again)
  jobs cancel <job_id>                  cancel any account's queued or running job
  queue                                 messages by state, jobs by status, the oldest waiting job

Options:
  --url <url>               API base URL (ADMIN_API_URL, default http://localhost:$PORT)
  --key <owner key>         owner key (OWNER_API_KEY, else DATA_DIR/owner-api-key)
  --idempotency-key <key>   sent as Idempotency-Key (users:create, credits:grant)
  --json                    print the API's JSON; lists and the queue print tables on a terminal otherwise
`;

export class UsageError extends Error {}

export interface ParsedArgs {
  command: string;
  positional: string[];
  flags: Record<string, string>;
}

const FLAGS = new Set([
  'email',
  'name',
  'credits',
  'slots',
  'reason',
  'limit',
  'before',
  'url',
  'key',
  'idempotency-key',
  'status',
  'user',
  'since',
  'scope',
  'origins',
]);
/** Flags that take no value. */
const SWITCHES = new Set(['json', 'owner']);
/** Commands with subcommands (`jobs list`), named by both words from here on. */
const GROUPS = new Set(['jobs', 'users']);

/** `--name value` and `--name=value`; unknown flags are refused. */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  const positional: string[] = [];
  const flags: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) {
      positional.push(a);
      continue;
    }
    const [name, inline] = a.slice(2).split(/=(.*)/s, 2);
    if (name === 'help') return { command: 'help', positional: [], flags: {} };
    if (SWITCHES.has(name) && inline === undefined) {
      flags[name] = 'true';
      continue;
    }
    if (!FLAGS.has(name)) throw new UsageError(`unknown option --${name}`);
    const value = inline ?? argv[++i];
    if (value === undefined) throw new UsageError(`--${name} needs a value`);
    flags[name] = value;
  }
  let command = positional.shift() ?? 'help';
  if (GROUPS.has(command)) command = `${command} ${positional.shift() ?? ''}`.trim();
  return { command, positional, flags };
}

/** `--since`: an ISO date-time, or an age back from now (`90s`, `30m`, `24h`, `7d`). */
export function sinceToIso(v: string, now = Date.now()): string {
  const age = /^(\d+)([smhd])$/.exec(v);
  if (age) return new Date(now - Number(age[1]) * { s: 1e3, m: 6e4, h: 3.6e6, d: 8.64e7 }[age[2] as 's' | 'm' | 'h' | 'd']).toISOString();
  const at = new Date(v);
  if (!/^\d{4}-\d{2}-\d{2}/.test(v) || Number.isNaN(at.getTime()))
    throw new UsageError('--since must be an ISO date-time (2026-01-31T12:00:00Z) or an age (30m, 24h, 7d)');
  return at.toISOString();
}

function query(pairs: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(pairs)) if (v !== undefined) q.set(k, v);
  return q.size ? `?${q}` : '';
}

function number(flag: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new UsageError(`${flag} must be a number`);
  return n;
}

function need(args: ParsedArgs, count: number, names: string): string[] {
  if (args.positional.length !== count) throw new UsageError(`${args.command} needs ${names}`);
  return args.positional;
}

export interface Request {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  body?: Record<string, unknown>;
}

/** The admin API request a command stands for. */
export function toRequest(args: ParsedArgs, now = Date.now()): Request {
  const f = args.flags;
  const seg = encodeURIComponent;
  switch (args.command) {
    case 'users:create': {
      need(args, 0, 'only options');
      if (!f.email) throw new UsageError('users:create needs --email');
      const body: Record<string, unknown> = { email: f.email };
      if (f.name !== undefined) body.name = f.name;
      if (f.credits !== undefined) body.credits = number('--credits', f.credits);
      if (f.slots !== undefined) body.showcase_slots = number('--slots', f.slots);
      return { method: 'POST', path: '/api/admin/users', body };
    }
    case 'keys:create': {
      const path = `/api/admin/users/${seg(need(args, 1, '<user_id>')[0])}/keys`;
      const body: Record<string, unknown> = {};
      if (f.name !== undefined) body.name = f.name;
      if (f.scope !== undefined) body.scope = f.scope;
      if (f.origins !== undefined)
        body.allowed_origins = f.origins
          .split(',')
          .map((o) => o.trim())
          .filter(Boolean);
      // No options: no body, as before scopes (a full key).
      return Object.keys(body).length ? { method: 'POST', path, body } : { method: 'POST', path };
    }
    case 'keys:revoke':
      return { method: 'DELETE', path: `/api/admin/keys/${seg(need(args, 1, '<key_id>')[0])}` };
    case 'credits:grant': {
      const [user, amount] = need(args, 2, '<user_id> <amount>');
      const body: Record<string, unknown> = { amount: number('<amount>', amount) };
      if (f.reason !== undefined) body.reason = f.reason;
      return { method: 'POST', path: `/api/admin/users/${seg(user)}/credits`, body };
    }
    case 'usage': {
      const [user] = need(args, 1, '<user_id>');
      const q = new URLSearchParams();
      if (f.limit) q.set('limit', f.limit);
      if (f.before) q.set('before', f.before);
      return { method: 'GET', path: `/api/admin/users/${seg(user)}/usage${q.size ? `?${q}` : ''}` };
    }
    case 'users list':
      need(args, 0, 'only options');
      return { method: 'GET', path: `/api/admin/users${query({ limit: f.limit })}` };
    case 'users invite': {
      const [email] = need(args, 1, '<email>');
      const body: Record<string, unknown> = { email, ...(f.owner ? { role: 'owner' } : {}) };
      if (f.name !== undefined) body.name = f.name;
      return { method: 'POST', path: '/api/admin/invites', body };
    }
    case 'users delete':
      return { method: 'DELETE', path: `/api/admin/users/${seg(need(args, 1, '<user_id>')[0])}` };
    case 'jobs list':
      need(args, 0, 'only options');
      return {
        method: 'GET',
        path: `/api/admin/jobs${query({ status: f.status, user: f.user, since: f.since === undefined ? undefined : sinceToIso(f.since, now), limit: f.limit })}`,
      };
    case 'jobs retry':
      return { method: 'POST', path: `/api/admin/jobs/${seg(need(args, 1, '<job_id>')[0])}/retry` };
    case 'jobs cancel':
      return { method: 'POST', path: `/api/admin/jobs/${seg(need(args, 1, '<job_id>')[0])}/cancel` };
    case 'queue':
      need(args, 0, 'no arguments');
      return { method: 'GET', path: '/api/admin/queue' };
    default:
      throw new UsageError(`unknown command "${args.command}"`);
  }
}

export interface CliIo {
  out: (s: string) => void;
  err: (s: string) => void;
  /** stdout is a terminal: lists and the queue print as tables (unless --json). */
  isTTY?: boolean;
}

/** Left-aligned columns under an upper-case header; empty cells as `-`. */
export function table(headers: readonly string[], rows: readonly (readonly unknown[])[]): string {
  const cells = [
    headers.map((h) => h.toUpperCase()),
    ...rows.map((r) => r.map((c) => (c === null || c === undefined || c === '' ? '-' : String(c)))),
  ];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  return cells.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join('  ')).join('\n');
}

/** Seconds as `3d 4h`, `12m 5s`, `40s`. */
export function formatAge(s: number): string {
  const parts: [number, string][] = [
    [Math.floor(s / 86400), 'd'],
    [Math.floor(s / 3600) % 24, 'h'],
    [Math.floor(s / 60) % 60, 'm'],
    [Math.floor(s) % 60, 's'],
  ];
  const first = parts.findIndex(([n]) => n > 0);
  return first < 0
    ? '0s'
    : parts
        .slice(first, first + 2)
        .filter(([n]) => n > 0)
        .map(([n, u]) => `${n}${u}`)
        .join(' ');
}

const minute = (iso: string | null | undefined) => (iso ? iso.slice(0, 16).replace('T', ' ') : null);

const jobRow = (j: Record<string, any>) => [
  j.id,
  j.kind,
  j.status,
  j.user_id,
  `${Math.round(j.progress)}%`,
  minute(j.created_at),
  minute(j.finished_at),
  j.error ? `${j.error.code}: ${j.error.message}`.slice(0, 60) : null,
];
const JOB_HEADERS = ['id', 'kind', 'status', 'user', 'progress', 'created', 'finished', 'error'];

/** The table a command's answer prints as on a terminal; null for commands that print JSON. */
export function render(command: string, body: Record<string, any>): string | null {
  const more = (what: string) =>
    body.has_more ? `\n(more ${what}: raise --limit${what === 'jobs' ? ' or narrow --status/--user/--since' : ''})` : '';
  switch (command) {
    case 'jobs list':
      return body.data.length ? table(JOB_HEADERS, body.data.map(jobRow)) + more('jobs') : 'no jobs';
    case 'jobs retry':
    case 'jobs cancel':
      return table(JOB_HEADERS, [jobRow(body)]);
    case 'users invite':
      return `${body.invite_url}\n(single use: ${body.email} sets a password and is signed in as ${body.role}; expires ${body.expires_at})`;
    case 'users list':
      return body.data.length
        ? table(
            ['id', 'email', 'name', 'credits', 'slots', 'created'],
            body.data.map((u: Record<string, any>) => [
              u.id,
              u.email,
              u.internal ? '(service)' : u.name,
              u.credits,
              u.showcase_slots,
              minute(u.created_at),
            ]),
          ) + more('users')
        : 'no users';
    case 'queue': {
      const q = body.queue as Record<string, number>;
      const oldest = body.oldest_waiting as { job_id: string; age_s: number } | null;
      return [
        `queue (${body.driver})`,
        table(['state', 'messages'], Object.entries(q)),
        '',
        table(['status', 'jobs'], Object.entries(body.jobs as Record<string, number>)),
        '',
        `oldest waiting: ${oldest ? `${oldest.job_id}, ${formatAge(oldest.age_s)}` : 'none'}`,
      ].join('\n');
    }
    default:
      return null;
  }
}

/**
 * Runs one command. Exit codes: 0 done, 1 the API refused (its error printed), 2 usage error.
 */
export async function runAdminCli(args: ParsedArgs, config: CliConfig, io: CliIo): Promise<number> {
  if (args.command === 'help') {
    io.out(USAGE);
    return 0;
  }
  const req = toRequest(args);
  const headers: Record<string, string> = { 'x-api-key': config.ownerKey };
  if (req.body) headers['content-type'] = 'application/json';
  if (args.flags['idempotency-key']) headers['idempotency-key'] = args.flags['idempotency-key'];
  let res: Response;
  try {
    res = await fetch(`${config.apiUrl}${req.path}`, {
      method: req.method,
      headers,
      body: req.body ? JSON.stringify(req.body) : undefined,
    });
  } catch (err) {
    io.err(`admin: cannot reach ${config.apiUrl}: ${(err as Error).cause ?? (err as Error).message}`);
    return 1;
  }
  const text = await res.text();
  const body = text ? (JSON.parse(text) as Record<string, any>) : null;
  if (!res.ok) {
    const e = body?.error;
    io.err(`admin: ${res.status} ${e?.code ?? ''}: ${e?.message ?? text}`);
    return 1;
  }
  const shown = body !== null && io.isTTY && !args.flags.json ? render(args.command, body) : null;
  io.out(shown ?? (body === null ? 'done' : JSON.stringify(body, null, 2)));
  return 0;
}
