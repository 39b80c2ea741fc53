import { z } from 'zod';
import { envelopeSchema } from './common.ts';

/** `limit` and `cursor` of the paged extension lists (decisions.md, "Extensions"). */
export function pageQuerySchema(defaultLimit: number, maxLimit: number) {
  return {
    limit: z.coerce
      .number({ error: `limit must be a whole number from 1 to ${maxLimit}.` })
      .int(`limit must be a whole number from 1 to ${maxLimit}.`)
      .min(1, `limit must be a whole number from 1 to ${maxLimit}.`)
      .max(maxLimit, `limit must be a whole number from 1 to ${maxLimit}.`)
      .default(defaultLimit),
    cursor: z.string().min(1).max(500).optional(),
  };
}

/** The envelope of a paged extension list: `nextCursor` is null on the last page. */
export function pagedEnvelopeSchema<T extends z.ZodType>(item: T) {
  return envelopeSchema(z.array(item)).extend({ nextCursor: z.string().nullable() });
}
