import crypto from 'node:crypto';
import type {
  PersonReview,
  PersonReviewRequest,
  RecordedPersonReview,
} from '../../contract/decisions.ts';
import type { Db } from '../db/database.ts';
import { ApiError } from '../http/errors.ts';
import { decisionsRepository, type PersonReviewRow } from './repository.ts';
import {
  applyPersonReview,
  assertNothingPending,
  fourEyesRuleOf,
  holdDecision,
  personReviewOf,
  type DecisionContext,
  recordedAfter,
} from './service.ts';

const noPerson = (id: string) => new ApiError(404, `No natural person has the id ${id}.`);

/**
 * Records a natural person's review outcome: it sets their kycStatus and nextKYCReview at once,
 * or, for an Accepted outcome under the four-eyes rule, waits for a second reviewer.
 * 404 for an unknown person, 409 while a decision waits, 400 for a next review not after today.
 */
export async function recordPersonReview(
  context: DecisionContext,
  personId: string,
  input: PersonReviewRequest,
): Promise<RecordedPersonReview> {
  const now = context.now();
  const at = now.toISOString();
  const today = at.slice(0, 10);
  if (input.nextKYCReview <= today) {
    const message = `The next review must be after today (${today}, UTC).`;
    throw new ApiError(400, `Invalid field nextKYCReview: ${message}`, [
      { field: 'nextKYCReview', message },
    ]);
  }
  return decisionsRepository(context.db).inTransaction(async (transaction) => {
    const repository = decisionsRepository(transaction);
    const person = await repository.findNaturalPerson(personId);
    if (!person) throw noPerson(personId);
    await assertNothingPending(transaction, personId);
    const rule = fourEyesRuleOf(context.fourEyes, input.kycStatus, person.risk_level);
    const latest = (await repository.listPersonReviews(personId))[0]?.at;
    const row: PersonReviewRow = {
      id: crypto.randomUUID(),
      entity_id: personId,
      kyc_status: input.kycStatus,
      next_kyc_review: input.nextKYCReview,
      reason: input.reason,
      author: context.caller.username,
      at: recordedAfter(latest, at),
      state: rule === undefined ? 'applied' : 'pending',
    };
    await repository.insertPersonReview(row);
    const review = personReviewOf(row);
    const detail = {
      reviewId: row.id,
      kycStatus: input.kycStatus,
      nextKYCReview: input.nextKYCReview,
      reason: input.reason,
    };
    if (rule === undefined) {
      await applyPersonReview(transaction, personId, input, at);
      await context.audit(transaction, {
        entityId: personId,
        detail: { ...detail, state: 'applied' },
      });
      return { state: 'applied', review };
    }
    const pending = await holdDecision(transaction, {
      entityId: personId,
      kind: 'person-review',
      payload: { ...detail, reviewId: row.id },
      rule,
      requestedBy: context.caller,
      at,
    });
    await context.audit(transaction, {
      entityId: personId,
      detail: { ...detail, state: 'pending', pendingId: pending.id, rule },
    });
    return { state: 'pending', review, pending };
  });
}

/** The person's reviews, newest first (held and rejected ones too, with their state); 404 for an unknown person. */
export async function personReviewsOf(db: Db, personId: string): Promise<PersonReview[]> {
  const repository = decisionsRepository(db);
  if (!(await repository.findNaturalPerson(personId))) throw noPerson(personId);
  return (await repository.listPersonReviews(personId)).map(personReviewOf);
}
