import { emailAddress, notAnObject, requestSchema, text, z } from '@app/schema';

/** Request schemas of the console's admin routes (invites): each validates, words its 400s and is the OpenAPI schema. */

const ROLE =
  "`customer` (default; the console of the user's own account) or `owner` (the operator's console: the admin pages and the owner key's rights). An invite never lowers a role.";

const role = z
  .enum(['customer', 'owner'], { error: () => 'customer or owner' })
  .optional()
  .meta({ description: ROLE });

/** POST /api/admin/users/{id}/invite (the body is optional). Fields it does not know are ignored, as on every admin route. */
export const InviteBody = requestSchema('InviteRequestDto', z.object({ role }, { error: notAnObject() }).nullish());

/** POST /api/admin/invites. */
export const InviteByEmailBody = requestSchema(
  'InviteByEmailRequestDto',
  z.object(
    {
      email: emailAddress().meta({
        example: 'ada@example.com',
        description: 'The user with this email is invited; one is created when there is none.',
      }),
      name: text(200, { invalid: 'must be a string of at most 200 characters' })
        .optional()
        .meta({ example: 'Ada', description: 'Name of a user created now.' }),
      role,
    },
    { error: notAnObject() },
  ),
);
