import { z } from 'zod';

/**
 * Field builders shared by the request schemas. Each carries its 400 message (the part after
 * `param: `) and documents itself in OpenAPI through the same zod object. Optional request fields use
 * `.nullish()`: null means "not given" everywhere in the API (PATCH: "back to the default").
 */

const given = (v: unknown) => v !== undefined;

/** A string of at most `max` characters; `required` words the message for a missing value. */
export function text(max: number, opts: { required?: string; invalid?: string } = {}) {
  const invalid = opts.invalid ?? 'must be a string';
  return z
    .string({ error: (iss) => (given(iss.input) ? invalid : (opts.required ?? 'required')) })
    .max(max, { error: opts.invalid ?? `at most ${max} characters` });
}

/** One of `values`; `message` overrides the listing (`must be one of a, b`). */
export function oneOf<const T extends readonly [string, ...string[]]>(values: T, message?: string) {
  return z.enum(values, { error: () => message ?? `must be one of ${values.join(', ')}` });
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** An email address (trimmed, at most 320 characters); any other value: `must be an email address`. */
export function emailAddress() {
  return z
    .string({ error: () => 'must be an email address' })
    .trim()
    .refine((e) => EMAIL.test(e) && e.length <= 320, { error: () => 'must be an email address' })
    .meta({ format: 'email', maxLength: 320 });
}

/** true or false. */
export function bool(message = 'must be true or false') {
  return z.boolean({ error: () => message });
}

/**
 * A whole number sent as query text (`?limit=20`), `min`..`max`; documented as an integer. `pattern` says
 * which texts count as numbers (default: 1 to 9 digits).
 *
 * @example
 * z.object({ limit: queryInt({ max: 100, message: 'a whole number from 1 to 100' }).optional() })
 */
export function queryInt(opts: { max: number; min?: number; message?: string; pattern?: RegExp; default?: number }) {
  const min = opts.min ?? 1;
  const message = opts.message ?? `a whole number from ${min} to ${opts.max}`;
  return z
    .string({ error: () => message })
    .regex(opts.pattern ?? /^[0-9]{1,9}$/, { error: () => message })
    .transform(Number)
    .pipe(
      z
        .number()
        .int({ error: () => message })
        .min(min, { error: () => message })
        .max(opts.max, { error: () => message }),
    )
    .meta({ type: 'integer', minimum: min, maximum: opts.max, ...(opts.default !== undefined ? { documentedDefault: opts.default } : {}) });
}

export interface UrlRules {
  /** Message for a missing value (default: the same as for a malformed one). */
  missing?: string;
  /** https only (default: http and https). */
  https?: boolean;
  /** Longest URL accepted (default 2048). */
  max?: number;
  /** A host literal the service refuses early (private and reserved addresses); the fetch re-checks at connect time. */
  blocked?: (hostname: string) => boolean;
}

/**
 * A URL parameter: parsable, http(s) (or https only), no credentials, not too long, optionally not a
 * private address literal. Normalised through WHATWG URL.
 *
 * @example
 * httpUrl({ https: true, max: 4096, blocked: isBlockedHostname })
 */
export function httpUrl(rules: UrlRules = {}) {
  const max = rules.max ?? 2048;
  const schemes = rules.https ? 'an https URL' : 'an http or https URL';
  const shape = `must be ${schemes} of at most ${max} characters`;
  return z
    .string({ error: (iss) => (given(iss.input) ? shape : (rules.missing ?? shape)) })
    .superRefine((v, ctx) => {
      if (v.length > max || !URL.canParse(v)) return void ctx.addIssue({ code: 'custom', message: shape });
      const u = new URL(v);
      const ok = rules.https ? u.protocol === 'https:' : u.protocol === 'http:' || u.protocol === 'https:';
      if (!ok)
        return void ctx.addIssue({ code: 'custom', message: `must be ${schemes}`, params: rules.https ? { code: 'https_required' } : {} });
      if (u.username || u.password) return void ctx.addIssue({ code: 'custom', message: 'must not carry credentials' });
      const host = u.hostname.replace(/^\[|\]$/g, '');
      // The code names the parameter (`image_url_blocked`): {param} is filled in by parseInput.
      if (rules.blocked?.(host))
        ctx.addIssue({ code: 'custom', message: `${u.hostname} is a private or reserved address`, params: { code: '{param}_blocked' } });
    })
    .transform((v) => new URL(v).toString())
    .meta({ format: 'uri', maxLength: max });
}

/** A required URL: absent, null or "" is `required` (parameter_missing). */
export function requiredUrl(rules: UrlRules = {}) {
  return z.preprocess((v) => (v === '' || v === null ? undefined : v), httpUrl({ missing: 'required', ...rules }));
}

/** The error of a body that is not a JSON object (an array, a string, no body). */
export const notAnObject =
  (message = 'the body must be a JSON object') =>
  (iss: { code: string }) =>
    iss.code === 'unrecognized_keys' ? undefined : message;
