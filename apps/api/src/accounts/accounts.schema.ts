import { emailAddress, oneOf, queryInt, requestSchema, text, z } from '@app/schema';
import { exactCents } from '@app/billing';
import { KEY_SCOPES, type KeyScope, normaliseOrigin } from '../http/api-keys/key-scope';

/** Request schemas of the accounts routes: each validates, words its 400s and is the OpenAPI schema. */

/** At most this many origins per widget key: a handful of shop domains, not a wildcard by enumeration. */
export const MAX_ALLOWED_ORIGINS = 20;

export const SCOPE_DESCRIPTION =
  "`full`: every route the account may use (keys made before scopes are full). `read_only`: GET routes of the account's own jobs, showcases, identity and usage " +
  "(status, result, embeds: the widget's attach-to-job mode). `widget`: the scope for a key in public HTML: free v1 conversions (POST /api/v1/convert) and the status and result of the jobs " +
  'that key created (404 for any other job), nothing else of the account; only from `allowed_origins` (checked against the Origin header), with the lower RATE_LIMIT_WIDGET rate limit. ' +
  'Anything else with a narrower key: 403 insufficient_scope.';

const ORIGIN_MESSAGE = 'an origin, scheme://host[:port] with http or https and no path, e.g. https://shop.example.com';

/**
 * A key creation body `{name?, scope?, allowed_origins?}` (all optional: no body makes a `full` key, as
 * before scopes). `allowed_origins` is required for a `widget` key and refused for the others, where it
 * would suggest a protection that is not applied. Outputs the key to create.
 */
export const CreateKeyBody = requestSchema(
  'CreateKeyRequestDto',
  z
    .strictObject(
      {
        name: text(100, { invalid: 'a string of at most 100 characters' }).nullish().meta({ example: 'shop widget' }),
        scope: oneOf(KEY_SCOPES as unknown as [KeyScope, ...KeyScope[]], `one of ${KEY_SCOPES.join(', ')}`)
          .nullish()
          .meta({ description: SCOPE_DESCRIPTION, default: 'full' }),
        allowed_origins: z
          .array(z.unknown(), { error: () => 'an array of origins like https://shop.example.com' })
          .nullish()
          .meta({
            description: 'Widget keys only (required there): origins scheme://host[:port] the key may be used from; other keys: leave out.',
            maxItems: MAX_ALLOWED_ORIGINS,
            items: { type: 'string' },
            example: ['https://shop.example.com'],
          }),
      },
      { error: () => 'the body must be a JSON object {name, scope, allowed_origins}' },
    )
    // The checks that need two fields, in the order the key's users meet them.
    .superRefine((b, ctx) => {
      const scope = b.scope ?? 'full';
      const origins = b.allowed_origins ?? [];
      const fail = (message: string, path: (string | number)[] = ['allowed_origins'], code?: string) =>
        ctx.addIssue({ code: 'custom', message, path, ...(code ? { params: { code } } : {}) });
      if (scope !== 'widget' && origins.length) return fail('only for widget keys (the other scopes are not limited by origin)');
      if (scope === 'widget' && !origins.length)
        return fail(
          'a widget key needs at least one origin (the pages it is used from, e.g. https://shop.example.com)',
          undefined,
          'parameter_missing',
        );
      if (origins.length > MAX_ALLOWED_ORIGINS) return fail(`at most ${MAX_ALLOWED_ORIGINS}`);
      const bad = origins.findIndex((v) => !(typeof v === 'string' && v.length <= 300 && normaliseOrigin(v)));
      if (bad >= 0) fail(ORIGIN_MESSAGE, ['allowed_origins', bad]);
    })
    .transform((b) => ({
      name: b.name?.trim() || null,
      scope: (b.scope ?? 'full') as KeyScope,
      allowedOrigins: [...new Set((b.allowed_origins ?? []).map((v) => normaliseOrigin(v as string)!))],
    }))
    .optional()
    .transform((k) => k ?? { name: null, scope: 'full' as KeyScope, allowedOrigins: [] as string[] }),
);
export type KeyRequest = z.output<typeof CreateKeyBody>;

/** Credits as a number with at most two decimals, in cents. */
const credits = (allowZero: boolean) =>
  z
    .number({ error: () => 'must be a number' })
    .superRefine((v, ctx) => {
      const cents = exactCents(v);
      if (cents === null) return void ctx.addIssue({ code: 'custom', message: 'at most two decimals' });
      if (cents < 0 || (!allowZero && cents === 0) || cents > 1e12)
        ctx.addIssue({ code: 'custom', message: `must be ${allowZero ? 'zero or more' : 'more than zero'}` });
    })
    .transform((v) => exactCents(v)!);

/** POST /api/admin/users. Fields it does not know are ignored, as they always were on the admin routes. */
export const CreateUserBody = requestSchema(
  'CreateUserRequestDto',
  z.object(
    {
      email: emailAddress().meta({ example: 'ada@example.com' }),
      name: text(200, { invalid: 'must be a string of at most 200 characters' }).optional().meta({ example: 'Ada' }),
      credits: credits(true).optional().meta({ description: 'Initial credits, at most two decimals.', minimum: 0, example: 100 }),
      showcase_slots: z
        .number({ error: () => 'must be a whole number, 0 or more' })
        .int({ error: () => 'must be a whole number, 0 or more' })
        .min(0, { error: () => 'must be a whole number, 0 or more' })
        .max(100_000, { error: () => 'must be a whole number, 0 or more' })
        .optional()
        .meta({ default: 0, example: 2 }),
    },
    { error: () => 'the body must be a JSON object {email, name, credits, showcase_slots}' },
  ),
);

/** POST /api/admin/users/{id}/credits: `amount` in credits (> 0, two decimals), `reason` kept to 500 characters. */
export const AddCreditsBody = requestSchema(
  'AddCreditsRequestDto',
  z.object(
    {
      amount: credits(false).meta({ description: 'Credits to grant, at most two decimals.', example: 50 }),
      reason: z
        .unknown()
        .transform((r) => (typeof r === 'string' ? r.slice(0, 500) : null))
        .optional()
        .meta({ type: 'string', maxLength: 500, example: 'monthly top-up' }),
    },
    { error: () => 'the body must be a JSON object {amount, reason}' },
  ),
);

/** `?limit&before` of a ledger (GET /api/v2/usage, the admin's view of a user's usage). */
export const UsageQuery = z.object({
  // Number() as before: "5.0" is 5.
  limit: queryInt({ max: 200, pattern: /^\s*[0-9.e+]*\s*$/, default: 50 })
    .optional()
    .describe('Entries per page.'),
  // An entry id (bigserial) as JavaScript holds it exactly: a larger one is no id we handed out (and 20
  // digits overflow the column: a 400, not a database error).
  before: queryInt({ max: Number.MAX_SAFE_INTEGER, pattern: /^[1-9][0-9]{0,15}$/, message: 'an entry id' })
    .optional()
    .describe('Entries older than this id (next_before of the previous page).'),
});
