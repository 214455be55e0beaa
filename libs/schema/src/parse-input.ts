import { UserError } from '@app/pipeline';
import type { z } from 'zod';

/** Longest unknown key echoed back in an error: a client's typo, not a megabyte of attacker text. */
const MAX_ECHOED_KEY = 60;

export interface ParseInputOptions {
  /** Prepended to every parameter name, e.g. `items[2].` when one entry of a list is checked on its own. */
  prefix?: string;
}

type Issue = z.core.$ZodIssue;

/** `custom_links[0].title`: how the API names a parameter (docs/api.md, "Errors"). */
export function paramName(path: readonly PropertyKey[], prefix = ''): string {
  let out = prefix;
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' || out.endsWith('.') ? String(key) : `.${String(key)}`;
  }
  return out.replace(/\.$/, '');
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v = root;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

/**
 * The issue a client is told about: a field the request does not take comes first (the others may be
 * consequences of a typo), then the first issue in the order the schema declares its fields.
 */
function firstIssue(issues: readonly Issue[]): Issue {
  return issues.find((i) => i.code === 'unrecognized_keys') ?? issues[0];
}

/** The 400 one issue becomes: code, parameter and message, as the hand-written validators answered. */
export function issueToError(issue: Issue, input: unknown, prefix = ''): UserError {
  const params = (issue as { params?: { code?: string; verbatim?: boolean } }).params ?? {};
  if (issue.code === 'unrecognized_keys') {
    const key = String(issue.keys[0]).slice(0, MAX_ECHOED_KEY);
    const param = paramName([...issue.path, key], prefix);
    const message = issue.message.startsWith('Unrecognized key') ? 'unknown parameter' : issue.message;
    return new UserError(params.code ?? 'parameter_unknown', `${param}: ${message}`, { param });
  }
  if (issue.path.length === 0 && !prefix) {
    // The body as a whole is not what the route takes (an array, a string...): no parameter to name.
    return new UserError(params.code ?? 'invalid_body', issue.message);
  }
  const param = paramName(issue.path, prefix);
  // An empty string where a value is required reads as "not given", as the hand-written checks had it.
  const sent = valueAt(input, issue.path);
  const missing = issue.code === 'invalid_type' && (sent === undefined || sent === '');
  const code = params.code?.replace('{param}', param) ?? (missing ? 'parameter_missing' : 'parameter_invalid');
  return new UserError(code, params.verbatim ? issue.message : `${param}: ${issue.message}`, { param });
}

/**
 * Validates `value` against a request schema and returns its parsed output. A failure is a
 * {@link UserError} naming the parameter (`items[2].frame.style`), which the API answers as a 400 and a
 * job fails with, never retried.
 *
 * @example
 * const body = parseInput(CreateKeyBody, req.body); // or throws UserError('parameter_invalid', 'scope: one of full, read, widget', { param: 'scope' })
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, opts: ParseInputOptions = {}): z.output<S> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  throw issueToError(firstIssue(r.error.issues), value, opts.prefix);
}
