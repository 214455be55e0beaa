import { z } from '@app/schema';
import { PG_INT_MAX } from '../http/list-query';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const day = (what: string) =>
  z
    .string({ error: () => `must be a date YYYY-MM-DD` })
    .regex(DAY, { error: () => 'must be a date YYYY-MM-DD' })
    .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), {
      error: () => 'must be a real date YYYY-MM-DD',
    })
    .optional()
    .meta({ description: what });
const id = (what: string) =>
  z
    .preprocess(
      (v) => (typeof v === 'string' && /^\d{1,10}$/.test(v) ? Number(v) : v),
      z
        .number({ error: () => 'must be a whole number' })
        .int({ error: () => 'must be a whole number' })
        .min(1, { error: () => 'must be a whole number' })
        .max(PG_INT_MAX, { error: () => 'must be a whole number' }),
    )
    .optional()
    .meta({ description: what });

/** The longest range one request reads. */
export const MAX_DAYS = 366;

/** GET /api/v2/analytics. */
export const AnalyticsQuery = z
  .object({
    from: day('First day, UTC, included (default: 29 days before `to`).'),
    to: day('Last day, UTC, included (default: today).'),
    showcase_id: id('Only this showcase.'),
    item_id: id('Only this item (of showcase_id, when given).'),
    job_id: z
      .string({ error: () => 'must be a job id (api_… or v2_…)' })
      .regex(/^(api|v2)_[a-z2-7]{1,60}$/, { error: () => 'must be a job id (api_… or v2_…)' })
      .optional()
      .meta({
        description:
          "Only this conversion (its job_id as the API answers it): a v1 or animated AR job's own embed pages and the widget showing them; a showcase picture's job: its item.",
        example: 'api_7kq4x2azb2c3d4e5f6g7hmiq',
      }),
    account_id: z.string().min(1).max(64).optional().meta({ description: 'Owner key only: one account (default: every account).' }),
    group_by: z
      .enum(['day', 'item', 'job', 'platform', 'referrer'], { error: () => 'must be one of day, item, job, platform, referrer' })
      .optional()
      .meta({
        description:
          'Also answer the totals per day, item (a showcase picture), job (a conversion outside any showcase: its own embed pages and widget), AR platform or referring site.',
      }),
    format: z
      .enum(['json', 'csv'], { error: () => 'must be json or csv' })
      .optional()
      .meta({ description: 'csv: the groups (or the totals) as CSV.' }),
  })
  .superRefine((q, ctx) => {
    if (q.from && q.to && q.from > q.to) ctx.addIssue({ code: 'custom', path: ['from'], message: 'must not be after to' });
  });
export type AnalyticsQuery = z.output<typeof AnalyticsQuery>;
