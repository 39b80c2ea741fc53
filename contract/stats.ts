import { z } from 'zod';
import { envelopeSchema, isoDateSchema } from './common.ts';
import { KYC_STATUSES, RISK_LEVELS } from './entities.ts';

const countSchema = z.number().int().min(0);

/** One count per value, each a named property (a record over an enum documents none). */
function countsOf<const K extends readonly string[]>(keys: K) {
  return z.object(
    Object.fromEntries(keys.map((key) => [key, countSchema])) as Record<
      K[number],
      typeof countSchema
    >,
  );
}

/**
 * `GET /api/v2/stats` (decisions.md, "Counts"): the portfolio at a glance. `due` counts the review
 * queue's windows as the queue does (`due7` and `due30` both start today); `pendingConfirmations`
 * the held decisions the caller may confirm; `assignedToMe` the entities assigned to the caller.
 */
export const statsSchema = z.object({
  total: countSchema,
  byStatus: countsOf(KYC_STATUSES),
  byRisk: countsOf(RISK_LEVELS),
  byType: z.object({ legalEntities: countSchema, naturalPersons: countSchema }),
  due: z.object({
    overdue: countSchema,
    due7: countSchema,
    due30: countSchema,
    undated: countSchema,
  }),
  pendingConfirmations: countSchema,
  assignedToMe: countSchema,
  /** The server's UTC date the due windows were measured from. */
  today: isoDateSchema,
});
export type Stats = z.infer<typeof statsSchema>;
export const statsResponseSchema = envelopeSchema(statsSchema);
