import { z } from 'zod';
import { isoDateSchema } from './common.ts';
import { countryCodeSchema, ENTITY_TYPES, KYC_STATUSES, RISK_LEVELS } from './entities.ts';
import { pagedEnvelopeSchema, pageQuerySchema } from './paging.ts';
import { assigneeFilterSchema } from './reviews.ts';

/**
 * Orders of `GET /api/v2/entity-index` (decisions.md, "Case work"): `name` (a company's name, a
 * person's last then first name, compared folded as search folds them), `created`, `nextReview`
 * (undated entities after the dated ones) and `status`; ties by entity id in the same direction.
 */
export const ENTITY_INDEX_SORTS = ['name', 'created', 'nextReview', 'status'] as const;
export type EntityIndexSort = (typeof ENTITY_INDEX_SORTS)[number];
export const ENTITY_INDEX_ORDERS = ['asc', 'desc'] as const;
export type EntityIndexOrder = (typeof ENTITY_INDEX_ORDERS)[number];

export const ENTITY_INDEX_PAGE_DEFAULT = 25;
export const ENTITY_INDEX_PAGE_MAX = 100;
export const ENTITY_INDEX_QUERY_MAX = 200;

/** The filters and order, as the console keeps them in its URL and the CSV export takes them. */
export const entityIndexFilterSchema = z.object({
  type: z
    .enum(ENTITY_TYPES, { error: 'type must be one of all, natural-persons, legal-entities.' })
    .default('all'),
  kycStatus: z
    .enum(KYC_STATUSES, { error: `kycStatus must be one of ${KYC_STATUSES.join(', ')}.` })
    .optional(),
  riskLevel: z
    .enum(RISK_LEVELS, { error: `riskLevel must be one of ${RISK_LEVELS.join(', ')}.` })
    .optional(),
  country: countryCodeSchema.optional(),
  assignee: assigneeFilterSchema.optional(),
  /** The start of a name (folded, as search compares), or an entity ID or external ID, exact. */
  q: z
    .string()
    .trim()
    .min(1, 'q must not be empty.')
    .max(ENTITY_INDEX_QUERY_MAX, `q can be at most ${ENTITY_INDEX_QUERY_MAX} characters.`)
    .optional(),
  sort: z
    .enum(ENTITY_INDEX_SORTS, { error: 'sort must be one of name, created, nextReview, status.' })
    .default('name'),
  order: z.enum(ENTITY_INDEX_ORDERS, { error: 'order must be asc or desc.' }).default('asc'),
});
export type EntityIndexFilter = z.infer<typeof entityIndexFilterSchema>;

export const entityIndexQuerySchema = z.strictObject(
  {
    ...entityIndexFilterSchema.shape,
    ...pageQuerySchema(ENTITY_INDEX_PAGE_DEFAULT, ENTITY_INDEX_PAGE_MAX),
    format: z.enum(['json', 'csv'], { error: 'format must be json or csv.' }).default('json'),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `Unknown entity-index parameter: ${issue.keys.join(', ')}. The index takes type, kycStatus, riskLevel, country, assignee, q, sort, order, limit, cursor and format.`
        : undefined,
  },
);
export type EntityIndexQuery = z.infer<typeof entityIndexQuerySchema>;

export const entityIndexRowSchema = z.object({
  entityId: z.string(),
  type: z.enum(['Legal Entity', 'Natural Person']),
  /** The company name, or the person's "First Middle Last", as their page heads it. */
  name: z.string(),
  country: z.string().nullable(),
  kycStatus: z.string(),
  riskLevel: z.string(),
  nextKYCReview: isoDateSchema.nullable(),
  /** The reviewer working on it (a username), null while unassigned. */
  assignee: z.string().nullable(),
  /** How many supporting documents the entity holds. */
  documents: z.number().int(),
  /** When it was onboarded, ISO 8601 UTC. */
  createdAt: z.string(),
});
export type EntityIndexRow = z.infer<typeof entityIndexRowSchema>;

export const entityIndexResponseSchema = pagedEnvelopeSchema(entityIndexRowSchema).extend({
  /** Every entity matching the filters, exact. */
  total: z.number().int(),
});
export type EntityIndexPage = z.infer<typeof entityIndexResponseSchema>;
