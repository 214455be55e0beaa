import { JOB_STATES, type JobStatus } from '@app/pipeline';
import { dimensionShape, presentationShape, requireLinkForCallToAction, requireSizePair } from '@app/plugins';
import { httpUrl, notAnObject, oneOf, requestSchema, requiredUrl, z } from '@app/schema';
import { cursorQuery, limitQuery } from '../http/list-query';
import { PUBLIC_JOB_KINDS } from './v2-jobs.dto';

/** Request schemas of the jobs routes: each validates, words its 400s and is the OpenAPI schema. */

const states = JOB_STATES as unknown as [JobStatus, ...JobStatus[]];
const status = oneOf(states, `one of ${JOB_STATES.join(', ')}`).optional();

/** GET /api/v2/jobs. The cursor is the creation time in microseconds (16 digits reach the year 2286) and the id. */
export const JobListQuery = z.object({
  status,
  kind: oneOf(PUBLIC_JOB_KINDS as unknown as [string, ...string[]], `one of ${PUBLIC_JOB_KINDS.join(', ')}`).optional(),
  cursor: cursorQuery(/^([0-9]{1,16})\.([a-z0-9_]{1,80})$/),
  limit: limitQuery(100, 20),
});

/** GET /api/admin/jobs. */
export const AdminJobListQuery = z.object({
  status,
  user: z
    .string()
    .min(1, { error: () => 'a user id' })
    .max(64, { error: () => 'a user id' })
    .optional()
    .describe('Owning user id.'),
  since: z
    .string()
    .transform((v, ctx) => {
      const d = new Date(v);
      if (!Number.isNaN(d.getTime())) return d;
      ctx.addIssue({ code: 'custom', message: 'an ISO 8601 date-time' });
      return z.NEVER;
    })
    .optional()
    .meta({ description: 'Created at or after (ISO 8601).', format: 'date-time' }),
  limit: limitQuery(500, 50),
});

/** GET /api/admin/users. */
export const AdminUserListQuery = z.object({ limit: limitQuery(1000, 100) });

/** GET /api/v2/webhooks/deliveries. */
export const DeliveryListQuery = z.object({ limit: limitQuery(200, 50) });

/**
 * POST /api/v1/convert (docs/api.md, Converting a picture (v1)): a picture URL, its size, a callback, and the presentation fields. The
 * job keeps the fields as sent; the pipeline resolves them. Private callback hosts are refused by the
 * service (a deployment's policy, ALLOW_PRIVATE_NETWORKS).
 */
export const ConvertBody = requestSchema(
  'ConvertRequestDto',
  z
    .strictObject(
      {
        image_url: requiredUrl({ max: 4096 }).meta({
          description:
            'Public http(s) URL of the image (JPEG, PNG, GIF, WebP, AVIF, HEIF, TIFF; at most FETCH_MAX_BYTES, 50 MB by default).',
          example: 'https://example.com/picture.jpg',
        }),
        callback_url: httpUrl()
          .nullish()
          .meta({ description: 'http(s) URL POSTed a signed JSON callback (Standard Webhooks headers) when the job completes or fails.' }),
        ...dimensionShape,
        ...presentationShape,
      },
      { error: notAnObject() },
    )
    .superRefine(requireSizePair)
    .superRefine(requireLinkForCallToAction),
);
