import type { CliConfig } from '@app/config';

export const USAGE = `Usage: npm run admin -- <command> [options]

Commands (all call the admin API with the owner key):
  users:create --email <email> [--name <name>] [--credits <n>] [--slots <n>]
  keys:create <user_id>                 create an API key (shown once)
  keys:revoke <key_id>
  credits:grant <user_id> <amount> [--reason <text>]
  usage <user_id> [--limit <n>] [--before <entry_id>]

Options:
  --url <url>               API base URL (ADMIN_API_URL, default http://localhost:$PORT)
  --key <owner key>         owner key (OWNER_API_KEY, else DATA_DIR/owner-api-key)
  --idempotency-key <key>   sent as Idempotency-Key (users:create, credits:grant)
`;

export class UsageError extends Error {}

export interface ParsedArgs {
  command: string;
  positional: string[];
  flags: Record<string, string>;
}

const FLAGS = new Set(['email', 'name', 'credits', 'slots', 'reason', 'limit', 'before', 'url', 'key', 'idempotency-key']);

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
    if (!FLAGS.has(name)) throw new UsageError(`unknown option --${name}`);
    const value = inline ?? argv[++i];
    if (value === undefined) throw new UsageError(`--${name} needs a value`);
    flags[name] = value;
  }
  return { command: positional.shift() ?? 'help', positional, flags };
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
export function toRequest(args: ParsedArgs): Request {
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
    case 'keys:create':
      return { method: 'POST', path: `/api/admin/users/${seg(need(args, 1, '<user_id>')[0])}/keys` };
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
    default:
      throw new UsageError(`unknown command "${args.command}"`);
  }
}

export interface CliIo {
  out: (s: string) => void;
  err: (s: string) => void;
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
    res = await fetch(`${config.apiUrl}${req.path}`, { method: req.method, headers, body: req.body ? JSON.stringify(req.body) : undefined });
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
  io.out(body === null ? 'done' : JSON.stringify(body, null, 2));
  return 0;
}
