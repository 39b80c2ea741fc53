/**
 * The one rule for an entity's current KYC state (decisions.md, "Controls (third round)"): its
 * newest verification decides `kycStatus` and `nextKYCReview`. Newest by `verificationDate`; on the
 * same date, the one recorded later. Pure: the console, the server, the seed and the migration
 * all call it.
 */

/** What the rule reads of a verification, in either the wire shape or a mapped stored row. */
export interface DatedVerification {
  verificationDate?: string | null;
  verificationStatus?: string | null;
  nextReviewDate?: string | null;
}

/** An entity's current status and next review, as its newest verification gives them. */
export interface CurrentVerification {
  kycStatus: string | null;
  nextKYCReview: string | null;
}

/**
 * The newest of `verifications`, given in the order they were recorded (oldest first): the latest
 * `verificationDate`, a later one in the list winning a tie; a missing date counts as the oldest.
 * Undefined for none.
 */
export function newestVerificationOf<V extends DatedVerification>(
  verifications: readonly V[],
): V | undefined {
  let newest: V | undefined;
  for (const verification of verifications) {
    if (!newest || (verification.verificationDate ?? '') >= (newest.verificationDate ?? '')) {
      newest = verification;
    }
  }
  return newest;
}

/**
 * The entity's `kycStatus` and `nextKYCReview` as its newest verification gives them (an overdue
 * date included), or undefined for an entity without verifications, whose own values stand.
 */
export function currentVerificationOf(
  verifications: readonly DatedVerification[],
): CurrentVerification | undefined {
  const newest = newestVerificationOf(verifications);
  if (!newest) return undefined;
  return {
    kycStatus: newest.verificationStatus ?? null,
    nextKYCReview: newest.nextReviewDate ?? null,
  };
}
