import { z } from 'zod';
import { envelopeSchema } from './common.ts';
import { roleSchema } from './audit.ts';

export const FOUR_EYES_MODES = ['high', 'all', 'off'] as const;

/**
 * What the running mode offers (decisions.md, "Extensions"): the console shows only what works
 * and never guesses the mode. `account` is who is asking, with the role that gates the audit log.
 */
export const capabilitiesSchema = z.object({
  mode: z.enum(['embedded', 'gateway']),
  features: z.object({
    reviewQueue: z.boolean(),
    recordVerification: z.boolean(),
    documentDecisions: z.boolean(),
    notes: z.boolean(),
    auditTrail: z.boolean(),
    /** Assigning entities to reviewers, "Assigned to me" and "Take next" (embedded mode). */
    assignment: z.boolean().default(false),
    /** The list of held decisions waiting for the caller's confirmation (embedded mode). */
    waitingForMe: z.boolean().default(false),
  }),
  fourEyes: z.enum(FOUR_EYES_MODES),
  account: z.object({ username: z.string(), role: roleSchema }),
});
export type Capabilities = z.infer<typeof capabilitiesSchema>;
export const capabilitiesResponseSchema = envelopeSchema(capabilitiesSchema);
