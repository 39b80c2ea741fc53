import { z } from 'zod';
import { envelopeSchema, isoDateSchema } from './common.ts';
import { pagedEnvelopeSchema, pageQuerySchema } from './paging.ts';
import {
  kycMetaDataSchema,
  kycStatusSchema,
  legalEntitySchema,
  riskLevelSchema,
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

/**
 * Years until the next review by risk level: High 1, Medium 2, Low 3. The one review-cycle rule:
 * the onboarding form and both Record outcome dialogs propose their next review date from it.
 */
export const REVIEW_INTERVAL_YEARS: Record<string, number> = { High: 1, Medium: 2, Low: 3 };

/**
 * The default next review date: `from` (the verification date, or today) plus the risk level's
 * interval (Medium's for an unknown level). 29 February moves to 28 February in a year without one.
 */
export function defaultNextReviewDate(from: string, riskLevel: string | null | undefined): string {
  const years = REVIEW_INTERVAL_YEARS[riskLevel ?? ''] ?? 2;
  const [year, month, day] = from.split('-').map(Number) as [number, number, number];
  const target = new Date(Date.UTC(year + years, month - 1, day));
  // Date.UTC rolls 29 February into March in a common year: step back to the month's last day.
  if (target.getUTCMonth() !== month - 1) target.setUTCDate(0);
  return target.toISOString().slice(0, 10);
}

/** "2 years from today"-style text for the proposed next review date. */
export function reviewIntervalText(riskLevel: string | null | undefined, from: string): string {
  const years = REVIEW_INTERVAL_YEARS[riskLevel ?? ''];
  return years
    ? `Default for ${riskLevel ?? ''} risk: ${years} year${years === 1 ? '' : 's'} from ${from}`
    : `Default: 2 years from ${from}`;
}

/** Why a decision waits for a second reviewer: the entity's risk (`high`) or FOUR_EYES=all. */
export const FOUR_EYES_RULES = ['high', 'all'] as const;

export const PENDING_STATES = ['pending', 'confirmed', 'rejected'] as const;

/** What kind of decision is held: a legal entity's outcome, a person's review, a risk change. */
export const PENDING_KINDS = ['verification', 'person-review', 'risk-level'] as const;
export type PendingKind = (typeof PENDING_KINDS)[number];

const reasonSchema = z
  .string()
  .trim()
  .min(1, 'Give a reason.')
  .max(1000, 'A reason can be at most 1000 characters.');

/** Who held a decision and what became of it, whatever its kind. */
const pendingCommonShape = {
  id: z.string(),
  entityId: z.string(),
  rule: z.enum(FOUR_EYES_RULES),
  requestedBy: z.string(),
  /** Display names of the two accounts when this server holds them (absent or null otherwise). */
  requestedByName: z.string().nullish(),
  requestedAt: z.string(),
  state: z.enum(PENDING_STATES),
  decidedBy: z.string().nullable(),
  decidedByName: z.string().nullish(),
  decidedAt: z.string().nullable(),
  reason: z.string().nullable(),
};

/** A risk level change as held or recorded: from one level to another, and why. */
export const riskLevelChangeRecordSchema = z.object({
  from: z.string(),
  to: riskLevelSchema,
  reason: z.string(),
});

/** A person review as held: the review's id, and what it sets once confirmed. */
export const heldPersonReviewSchema = z.object({
  reviewId: z.string(),
  kycStatus: kycStatusSchema,
  nextKYCReview: isoDateSchema,
  reason: z.string(),
});

/** A decision held for a second reviewer (four-eyes), as the API shows it; `kind` says what it holds. */
export const pendingVerificationSchema = z.discriminatedUnion('kind', [
  z.object({
    ...pendingCommonShape,
    kind: z.literal('verification'),
    verification: verificationInputSchema,
  }),
  z.object({
    ...pendingCommonShape,
    kind: z.literal('person-review'),
    review: heldPersonReviewSchema,
  }),
  z.object({
    ...pendingCommonShape,
    kind: z.literal('risk-level'),
    riskChange: riskLevelChangeRecordSchema,
  }),
]);
export type PendingVerification = z.infer<typeof pendingVerificationSchema>;

const appliedVerificationSchema = z.object({
  state: z.literal('applied'),
  verification: verificationSchema,
  kycStatus: z.string(),
  nextKYCReview: z.string(),
});

/** What recording an outcome did: applied to the entity, or held for a second reviewer. */
export const recordedVerificationSchema = z.discriminatedUnion('state', [
  appliedVerificationSchema,
  z.object({ state: z.literal('pending'), pending: pendingVerificationSchema }),
]);
export type RecordedVerification = z.infer<typeof recordedVerificationSchema>;
export const recordedVerificationResponseSchema = envelopeSchema(recordedVerificationSchema);

/** A natural person's review outcome (decisions.md, "Natural-person reviews"). */
export const personReviewInputSchema = z.strictObject({
  kycStatus: kycStatusSchema,
  // After today (UTC, the server's clock): the server checks it, the form too.
  nextKYCReview: isoDateSchema,
  reason: reasonSchema,
});
export type PersonReviewInput = z.input<typeof personReviewInputSchema>;
export type PersonReviewRequest = z.infer<typeof personReviewInputSchema>;

export const PERSON_REVIEW_STATES = ['applied', 'pending', 'rejected'] as const;

export const personReviewSchema = z.object({
  id: z.string(),
  kycStatus: z.string(),
  nextKYCReview: z.string(),
  reason: z.string(),
  author: z.string(),
  at: z.string(),
  /** `pending` while held for a second reviewer; `rejected` when the second reviewer refused it. */
  state: z.enum(PERSON_REVIEW_STATES),
});
export type PersonReview = z.infer<typeof personReviewSchema>;

/** What recording a person review did; a held one carries the decision to confirm. */
export const recordedPersonReviewSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('applied'), review: personReviewSchema }),
  z.object({
    state: z.literal('pending'),
    review: personReviewSchema,
    pending: pendingVerificationSchema,
  }),
]);
export type RecordedPersonReview = z.infer<typeof recordedPersonReviewSchema>;
export const recordedPersonReviewResponseSchema = envelopeSchema(recordedPersonReviewSchema);
export const personReviewListResponseSchema = envelopeSchema(z.array(personReviewSchema));

/** `PUT /api/v2/entities/{id}/risk-level`. */
export const riskLevelChangeSchema = z.strictObject({
  riskLevel: riskLevelSchema,
  reason: reasonSchema,
});
export type RiskLevelChangeInput = z.input<typeof riskLevelChangeSchema>;
export type RiskLevelChange = z.infer<typeof riskLevelChangeSchema>;

/** Applied (200) with the new kycMetaData, or held (202) with the unchanged one and the decision. */
export const riskLevelChangedSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('applied'), kycMetaData: kycMetaDataSchema }),
  z.object({
    state: z.literal('pending'),
    kycMetaData: kycMetaDataSchema,
    pending: pendingVerificationSchema,
  }),
]);
export type RiskLevelChanged = z.infer<typeof riskLevelChangedSchema>;
export const riskLevelChangedResponseSchema = envelopeSchema(riskLevelChangedSchema);

/** What confirming a held decision applied, by kind (the outcome's fields as before, plus `kind`). */
export const confirmedDecisionSchema = z.discriminatedUnion('kind', [
  appliedVerificationSchema.extend({ kind: z.literal('verification') }),
  z.object({
    kind: z.literal('person-review'),
    state: z.literal('applied'),
    review: personReviewSchema,
    kycStatus: z.string(),
    nextKYCReview: z.string(),
  }),
  z.object({
    kind: z.literal('risk-level'),
    state: z.literal('applied'),
    kycMetaData: kycMetaDataSchema,
  }),
]);
export type ConfirmedDecision = z.infer<typeof confirmedDecisionSchema>;
export const confirmedDecisionResponseSchema = envelopeSchema(confirmedDecisionSchema);

/**
 * The create answer: the interface's envelope with the legal entity, plus `pendingVerification`
 * when onboarding held the acceptance for a second reviewer (the entity is then in `Review`).
 */
export const legalEntityCreatedResponseSchema = envelopeSchema(legalEntitySchema).extend({
  pendingVerification: pendingVerificationSchema.optional(),
});

export const pendingVerificationListResponseSchema = envelopeSchema(
  z.array(pendingVerificationSchema),
);
export const pendingVerificationResponseSchema = envelopeSchema(pendingVerificationSchema);

export const WAITING_PAGE_DEFAULT = 50;
export const WAITING_PAGE_MAX = 100;

/** `GET /api/v2/pending-verifications`: one page of the decisions waiting for the caller. */
export const waitingDecisionsQuerySchema = z.strictObject(
  pageQuerySchema(WAITING_PAGE_DEFAULT, WAITING_PAGE_MAX),
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `Unknown parameter: ${issue.keys.join(', ')}. This list takes limit and cursor.`
        : undefined,
  },
);
export type WaitingDecisionsQuery = z.infer<typeof waitingDecisionsQuerySchema>;

/** A held decision the caller may confirm, with the entity it concerns as its page heads it. */
export const waitingDecisionSchema = pendingVerificationSchema.and(
  z.object({
    entityName: z.string(),
    entityType: z.enum(['Legal Entity', 'Natural Person']),
  }),
);
export type WaitingDecision = z.infer<typeof waitingDecisionSchema>;

/** Oldest first; `total`: every decision waiting for the caller, for the navigation's count. */
export const waitingDecisionsPageSchema = pagedEnvelopeSchema(waitingDecisionSchema).extend({
  total: z.number().int(),
});
export type WaitingDecisionsPage = z.infer<typeof waitingDecisionsPageSchema>;

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
