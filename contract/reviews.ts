import { z } from 'zod';
import { envelopeSchema, isoDateSchema } from './common.ts';
import { countryCodeSchema, ENTITY_TYPES, KYC_STATUSES, RISK_LEVELS } from './entities.ts';
import { pagedEnvelopeSchema, pageQuerySchema } from './paging.ts';

/**
 * Windows of the review queue (docs/reviews.md), against today's UTC date: `overdue` before
 * today; `7d` and `30d` from today to 7 or 30 days ahead, both ends included, overdue excluded;
 * `all` every entity with a next review date; `undated` every entity without one; `responded`
 * every legal entity with a client's response not yet reviewed (a request in state `submitted`).
 */
export const REVIEW_WINDOWS = ['overdue', '7d', '30d', 'all', 'undated', 'responded'] as const;
export const reviewWindowSchema = z.enum(REVIEW_WINDOWS, {
  error: 'due must be one of overdue, 7d, 30d, all, undated, responded.',
});
export type ReviewWindow = z.infer<typeof reviewWindowSchema>;

/** Days ahead that the `7d` and `30d` windows reach. */
export const REVIEW_WINDOW_DAYS = { '7d': 7, '30d': 30 } as const;

/** The filters of the queue, as the console keeps them in its URL. */
export const reviewFilterSchema = z.object({
  status: z
    .enum(KYC_STATUSES, { error: `status must be one of ${KYC_STATUSES.join(', ')}.` })
    .optional(),
  country: countryCodeSchema.optional(),
  riskLevel: z
    .enum(RISK_LEVELS, { error: `riskLevel must be one of ${RISK_LEVELS.join(', ')}.` })
    .optional(),
  // Named as the entity list names them.
  type: z
    .enum(ENTITY_TYPES, { error: 'type must be one of all, natural-persons, legal-entities.' })
    .default('all'),
});
export type ReviewFilter = z.input<typeof reviewFilterSchema>;

export const REVIEW_PAGE_DEFAULT = 50;
export const REVIEW_PAGE_MAX = 100;

/** `me` (the caller), `none` (nobody), or a username: whose entities the queue lists. */
export const assigneeFilterSchema = z
  .string({ error: 'assignee must be me, none or a username.' })
  .min(1, 'assignee must be me, none or a username.')
  .max(100, 'assignee must be me, none or a username.');
export type AssigneeFilter = z.infer<typeof assigneeFilterSchema>;

export const reviewQueueQuerySchema = z.strictObject(
  {
    due: reviewWindowSchema.default('overdue'),
    ...reviewFilterSchema.shape,
    assignee: assigneeFilterSchema.optional(),
    ...pageQuerySchema(REVIEW_PAGE_DEFAULT, REVIEW_PAGE_MAX),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `Unknown review-queue parameter: ${issue.keys.join(', ')}. The queue takes due, status, country, riskLevel, type, assignee, limit and cursor.`
        : undefined,
  },
);
export type ReviewQueueQuery = z.infer<typeof reviewQueueQuerySchema>;

export const reviewItemSchema = z.object({
  entityId: z.string(),
  type: z.enum(['Legal Entity', 'Natural Person']),
  /** The company name, or the person's "First Middle Last", as their page heads it. */
  name: z.string(),
  country: z.string().nullable(),
  kycStatus: z.string(),
  riskLevel: z.string(),
  /** Null in the `undated` window, and in `responded` for an entity without one. */
  nextReviewDate: isoDateSchema.nullable(),
  /** The reviewer working on it (a username), null while unassigned. */
  assignedUser: z.string().nullish(),
  /** Where the queue continues after this item: the `cursor` that pages from here (next navigation). */
  cursor: z.string(),
});
export type ReviewItem = z.infer<typeof reviewItemSchema>;

/**
 * How many entities of the filters fall in each window (`due7` and `due30` both start today);
 * `undated`: those without a next review date; `all`: those with one (the `all` window).
 */
export const reviewCountsSchema = z.object({
  overdue: z.number().int(),
  due7: z.number().int(),
  due30: z.number().int(),
  undated: z.number().int(),
  all: z.number().int(),
  /**
   * Legal entities with a submitted, unreviewed client response (the `responded` window); always
   * sent by this server, optional for a console reading one from before client responses.
   */
  responded: z.number().int().optional(),
});
export type ReviewCounts = z.infer<typeof reviewCountsSchema>;

export const reviewQueueResponseSchema = pagedEnvelopeSchema(reviewItemSchema).extend({
  counts: reviewCountsSchema,
  /** The server's UTC date the windows were measured from, so "overdue by N days" agrees with them. */
  today: isoDateSchema,
});
export type ReviewQueuePage = z.infer<typeof reviewQueueResponseSchema>;

/**
 * `POST /api/v2/reviews/take-next`: the queue's filters (all optional); the window defaults to
 * `all`, every entity with a next review date.
 */
export const takeNextSchema = z.strictObject(
  {
    due: reviewWindowSchema.default('all'),
    ...reviewFilterSchema.shape,
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `Unknown field: ${issue.keys.join(', ')}. Take next takes due, status, country, riskLevel and type.`
        : undefined,
  },
);
export type TakeNext = z.infer<typeof takeNextSchema>;
export const takeNextResponseSchema = envelopeSchema(reviewItemSchema);
