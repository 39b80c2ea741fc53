import { z } from 'zod';
import { envelopeSchema } from './common.ts';
import {
  type Today,
  verificationInputSchema,
  verificationSchema,
  wallClockToday,
  withVerificationDateRules,
} from './entities.ts';

/**
 * A review outcome as recorded on a legal entity's page, for a given today: a verification without
 * `id`, under the create form's verification rules (not dated after today, next review after the
 * verification date). It becomes the entity's `kycStatus` and `nextKYCReview` when it is the newest.
 */
export function recordVerificationSchemaFor(today: Today) {
  return withVerificationDateRules(
    z.strictObject({
      ...verificationInputSchema.shape,
      // The form records the legal entity's own verification unless it says otherwise.
      legalEntityVerification: verificationInputSchema.shape.legalEntityVerification.default(true),
    }),
    today,
  );
}

/** A review outcome checked against the wall clock's today (UTC): the console's dialog. */
export const recordVerificationSchema = recordVerificationSchemaFor(wallClockToday);
export type RecordVerificationInput = z.input<typeof recordVerificationSchema>;
export type RecordVerification = z.infer<typeof recordVerificationSchema>;

/** Years until the next review by risk level: High 1, Medium 2, Low 3 (the form's default). */
export const REVIEW_INTERVAL_YEARS: Record<string, number> = { High: 1, Medium: 2, Low: 3 };

/**
 * The default next review date: `today` plus the risk level's interval (Medium's for an unknown
 * level). 29 February moves to 28 February in a year without one.
 */
export function defaultNextReviewDate(today: string, riskLevel: string | null | undefined): string {
  const years = REVIEW_INTERVAL_YEARS[riskLevel ?? ''] ?? 2;
  const [year, month, day] = today.split('-').map(Number) as [number, number, number];
  const target = new Date(Date.UTC(year + years, month - 1, day));
  // Date.UTC rolls 29 February into March in a common year: step back to the month's last day.
  if (target.getUTCMonth() !== month - 1) target.setUTCDate(0);
  return target.toISOString().slice(0, 10);
}

/** Why a decision waits for a second reviewer: the entity's risk (`high`) or FOUR_EYES=all. */
export const FOUR_EYES_RULES = ['high', 'all'] as const;

export const PENDING_STATES = ['pending', 'confirmed', 'rejected'] as const;

/** A decision held for a second reviewer (four-eyes), as the API shows it. */
export const pendingVerificationSchema = z.object({
  id: z.string(),
  entityId: z.string(),
  verification: verificationInputSchema,
  rule: z.enum(FOUR_EYES_RULES),
  requestedBy: z.string(),
  requestedAt: z.string(),
  state: z.enum(PENDING_STATES),
  decidedBy: z.string().nullable(),
  decidedAt: z.string().nullable(),
  reason: z.string().nullable(),
});
export type PendingVerification = z.infer<typeof pendingVerificationSchema>;

/** What recording (or confirming) an outcome did: applied to the entity, or held for a second reviewer. */
export const recordedVerificationSchema = z.discriminatedUnion('state', [
  z.object({
    state: z.literal('applied'),
    verification: verificationSchema,
    kycStatus: z.string(),
    nextKYCReview: z.string(),
  }),
  z.object({ state: z.literal('pending'), pending: pendingVerificationSchema }),
]);
export type RecordedVerification = z.infer<typeof recordedVerificationSchema>;
export const recordedVerificationResponseSchema = envelopeSchema(recordedVerificationSchema);

export const pendingVerificationListResponseSchema = envelopeSchema(
  z.array(pendingVerificationSchema),
);
export const pendingVerificationResponseSchema = envelopeSchema(pendingVerificationSchema);

const reasonSchema = z
  .string()
  .trim()
  .min(1, 'Give a reason.')
  .max(1000, 'A reason can be at most 1000 characters.');

export const rejectPendingVerificationSchema = z.strictObject({ reason: reasonSchema });
export type RejectPendingVerification = z.infer<typeof rejectPendingVerificationSchema>;

/** A document decision: a rejection needs a reason, an approval may have one. */
export const documentDecisionSchema = z
  .strictObject({
    documentApproved: z.boolean({ error: 'documentApproved must be true or false.' }),
    reason: reasonSchema.optional(),
  })
  .refine((decision) => decision.documentApproved || decision.reason !== undefined, {
    path: ['reason'],
    message: 'Give a reason for rejecting the document.',
    when: (payload) => payload.issues.length === 0,
  });
export type DocumentDecisionInput = z.input<typeof documentDecisionSchema>;
export type DocumentDecision = z.infer<typeof documentDecisionSchema>;
