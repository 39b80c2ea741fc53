import crypto from 'node:crypto';
import type {
  ConfirmedDecision,
  DocumentDecision,
  PendingKind,
  PendingVerification,
  RecordedVerification,
  RecordVerification,
} from '../../contract/decisions.ts';
import { currentVerificationOf } from '../../contract/current-verification.ts';
import type { DocumentMetadata } from '../../contract/entities.ts';
import type { AuditInTransaction } from '../audit/audit-trail.ts';
import { accountsRepository } from '../auth/accounts-repository.ts';
import type { Caller } from '../auth/caller.ts';
import type { Db } from '../db/database.ts';
import type { Config } from '../env.ts';
import { isUniqueViolation } from '../db/engine.ts';
import type { VerificationRow } from '../db/schema.ts';
import { documentMetadataOf } from '../documents/mappers.ts';
import { documentsRepository } from '../documents/repository.ts';
import { entitiesRepository } from '../entities/repository.ts';
import { refreshListRecords } from '../entities/read-model/list-records.ts';
import { datedVerificationOf, kycMetaDataOf, verificationOf } from '../entities/mappers.ts';
import { ApiError } from '../http/errors.ts';
import { Refusal } from '../http/refusal.ts';
import {
  decisionsRepository,
  type PendingVerificationRow,
  type PersonReviewRow,
} from './repository.ts';

export interface DecisionContext {
  db: Db;
  now: () => Date;
  fourEyes: Config['fourEyes'];
  caller: Pick<Caller, 'accountId' | 'username'>;
  audit: AuditInTransaction;
}

export const PENDING_EXISTS =
  'A decision on this entity is waiting for a second reviewer: confirm or reject it first.';

/** Whether an outcome waits for a second reviewer, and under which rule; undefined when it applies at once. */
export function fourEyesRuleOf(
  mode: Config['fourEyes'],
  status: string,
  riskLevel: string,
): 'high' | 'all' | undefined {
  if (status !== 'Accepted' || mode === 'off') return undefined;
  if (mode === 'all') return 'all';
  return riskLevel === 'High' ? 'high' : undefined;
}

/** A held risk change: from, to and why. */
interface HeldRiskChange {
  from: string;
  to: 'Low' | 'Medium' | 'High';
  reason: string;
}

/** A held person review: the review row's id and what it sets. */
interface HeldPersonReview {
  reviewId: string;
  kycStatus: RecordVerification['verificationStatus'];
  nextKYCReview: string;
  reason: string;
}

/** What a held decision would have set: an outcome's status, or a risk change's new level. */
function heldStatusOf(row: PendingVerificationRow): string {
  const held = JSON.parse(row.verification) as
    RecordVerification | HeldPersonReview | HeldRiskChange;
  if ('verificationStatus' in held) return held.verificationStatus;
  if ('kycStatus' in held) return held.kycStatus;
  return held.to;
}

export function pendingOf(row: PendingVerificationRow): PendingVerification {
  const common = {
    id: row.id,
    entityId: row.legal_entity_id,
    rule: row.rule === 'all' ? ('all' as const) : ('high' as const),
    requestedBy: row.requested_by,
    requestedAt: row.requested_at,
    state: row.state,
    decidedBy: row.decided_by,
    decidedAt: row.decided_at,
    reason: row.reason,
  };
  if (row.kind === 'person-review') {
    return {
      ...common,
      kind: 'person-review',
      review: JSON.parse(row.verification) as HeldPersonReview,
    };
  }
  if (row.kind === 'risk-level') {
    return {
      ...common,
      kind: 'risk-level',
      riskChange: JSON.parse(row.verification) as HeldRiskChange,
    };
  }
  return {
    ...common,
    kind: 'verification',
    verification: JSON.parse(row.verification) as RecordVerification,
  };
}

/** 409 while a decision of any kind on this entity waits for a second reviewer. */
export async function assertNothingPending(transaction: Db, entityId: string): Promise<void> {
  if ((await decisionsRepository(transaction).findPendingOfEntity(entityId)).length > 0) {
    throw new Refusal(409, PENDING_EXISTS, 'decision-pending', { entityId });
  }
}

/** Stores a decision held for a second reviewer, in the caller's transaction; 409 if one already waits. */
export async function holdDecision(
  transaction: Db,
  held: {
    entityId: string;
    kind: PendingKind;
    payload: RecordVerification | HeldPersonReview | HeldRiskChange;
    rule: 'high' | 'all';
    requestedBy: Pick<Caller, 'accountId' | 'username'>;
    at: string;
  },
): Promise<PendingVerification> {
  const row: PendingVerificationRow = {
    id: crypto.randomUUID(),
    legal_entity_id: held.entityId,
    kind: held.kind,
    verification: JSON.stringify(held.payload),
    rule: held.rule,
    requested_by: held.requestedBy.username,
    requested_by_account: held.requestedBy.accountId,
    requested_at: held.at,
    state: 'pending',
    decided_by: null,
    decided_at: null,
    reason: null,
  };
  try {
    await decisionsRepository(transaction).insertPending(row);
  } catch (error) {
    // Another reviewer's decision got in between the caller's check and this insert.
    if (isUniqueViolation(error)) {
      throw new Refusal(409, PENDING_EXISTS, 'decision-pending', { entityId: held.entityId });
    }
    throw error;
  }
  return pendingOf(row);
}

/**
 * When a decision is recorded: now, or a millisecond after the entity's latest one when the clock
 * has not moved past it (one millisecond, or another instance's clock ahead), so that the time
 * always gives the order recorded.
 */
export function recordedAfter(latest: string | undefined, at: string): string {
  if (latest === undefined || latest < at) return at;
  return new Date(Date.parse(latest) + 1).toISOString();
}

/**
 * Appends the verification; the entity's status and next review then follow its newest verification
 * (decisions.md), so an outcome dated before the newest one is kept but changes neither.
 */
async function applyOutcome(
  transaction: Db,
  entityId: string,
  outcome: RecordVerification,
  at: string,
): Promise<Extract<RecordedVerification, { state: 'applied' }>> {
  const stored = await entitiesRepository(transaction).verificationsOf([entityId]);
  const row: VerificationRow = {
    id: crypto.randomUUID(),
    legal_entity_id: entityId,
    legal_entity_verification: outcome.legalEntityVerification ? 1 : 0,
    verification_status: outcome.verificationStatus,
    verification_date: outcome.verificationDate,
    verification_source: outcome.verificationSource,
    business_statement: outcome.businessStatement,
    next_review_date: outcome.nextReviewDate,
    verification_issues: JSON.stringify(outcome.verificationIssues),
    created_at: recordedAfter(
      stored.reduce<string | undefined>(
        (max, row) => (max === undefined || row.created_at > max ? row.created_at : max),
        undefined,
      ),
      at,
    ),
  };
  const repository = decisionsRepository(transaction);
  await repository.insertVerification(row);
  // Recorded last, so it is the newest unless another one is dated later.
  const current = currentVerificationOf([...stored, row].map(datedVerificationOf));
  const kycStatus = current?.kycStatus ?? outcome.verificationStatus;
  const nextKycReview = current?.nextKYCReview ?? outcome.nextReviewDate;
  await repository.setCurrentReview(entityId, { kycStatus, nextKycReview, at });
  await refreshListRecords(transaction, [entityId]);
  return {
    state: 'applied',
    verification: verificationOf(row),
    kycStatus,
    nextKYCReview: nextKycReview,
  };
}

/**
 * Records a review outcome on a legal entity: applied at once, or held for a second reviewer when
 * four-eyes applies. 404 for an unknown legal entity, 409 while another decision waits.
 */
export async function recordOutcome(
  context: DecisionContext,
  entityId: string,
  outcome: RecordVerification,
): Promise<RecordedVerification> {
  const at = context.now().toISOString();
  return decisionsRepository(context.db).inTransaction(async (transaction) => {
    const repository = decisionsRepository(transaction);
    const entity = await repository.findLegalEntity(entityId);
    if (!entity) throw new ApiError(404, `No legal entity has the id ${entityId}.`);
    await assertNothingPending(transaction, entityId);
    const rule = fourEyesRuleOf(context.fourEyes, outcome.verificationStatus, entity.risk_level);
    if (rule === undefined) {
      const applied = await applyOutcome(transaction, entityId, outcome, at);
      await context.audit(transaction, {
        entityId,
        detail: {
          verificationId: applied.verification.id,
          status: outcome.verificationStatus,
          nextReviewDate: outcome.nextReviewDate,
          held: false,
        },
      });
      return applied;
    }
    const pending = await holdDecision(transaction, {
      entityId,
      kind: 'verification',
      payload: outcome,
      rule,
      requestedBy: context.caller,
      at,
    });
    await context.audit(transaction, {
      entityId,
      detail: {
        pendingId: pending.id,
        status: outcome.verificationStatus,
        nextReviewDate: outcome.nextReviewDate,
        held: true,
        rule,
      },
    });
    return { state: 'pending', pending };
  });
}

/**
 * The decisions on this entity waiting for a second reviewer (at most one, of any kind); 404 when
 * no entity of this kind has the id.
 */
export async function pendingOfEntity(
  db: Db,
  entityId: string,
  kind: 'legal' | 'person' = 'legal',
): Promise<PendingVerification[]> {
  const repository = decisionsRepository(db);
  const entity = await repository.findEntity(entityId);
  if (entity?.kind !== kind) {
    const noun = kind === 'legal' ? 'legal entity' : 'natural person';
    throw new ApiError(404, `No ${noun} has the id ${entityId}.`);
  }
  const held = (await repository.findPendingOfEntity(entityId)).map(pendingOf);
  const names = await accountsRepository(db).displayNames(
    held.flatMap((pending) => [
      pending.requestedBy,
      ...(pending.decidedBy ? [pending.decidedBy] : []),
    ]),
  );
  return held.map((pending) => ({
    ...pending,
    requestedByName: names.get(pending.requestedBy) ?? null,
    decidedByName: pending.decidedBy ? (names.get(pending.decidedBy) ?? null) : null,
  }));
}

/** The pending decision, still pending and not the caller's own (404, 409, 403 otherwise). */
async function openPendingFor(
  transaction: Db,
  id: string,
  caller: DecisionContext['caller'],
  verb: 'confirm' | 'reject',
): Promise<PendingVerificationRow> {
  const pending = await decisionsRepository(transaction).findPending(id);
  if (!pending) throw new ApiError(404, `No pending decision has the id ${id}.`);
  const target = { entityId: pending.legal_entity_id };
  if (pending.state !== 'pending') {
    throw new Refusal(
      409,
      `This decision was already ${pending.state}; there is nothing to ${verb}.`,
      'already-closed',
      target,
    );
  }
  if (pending.requested_by_account === caller.accountId) {
    throw new Refusal(
      403,
      `Four-eyes rule: a decision must be ${verb === 'confirm' ? 'confirmed' : 'rejected'} by another account than the one that recorded it.`,
      'four-eyes',
      target,
    );
  }
  return pending;
}

/** Sets the person's status and next review from their review; the queue and lists follow. */
export async function applyPersonReview(
  transaction: Db,
  entityId: string,
  review: { kycStatus: string; nextKYCReview: string },
  at: string,
): Promise<void> {
  await decisionsRepository(transaction).setCurrentReview(entityId, {
    kycStatus: review.kycStatus,
    nextKycReview: review.nextKYCReview,
    at,
  });
  await refreshListRecords(transaction, [entityId]);
}

export function personReviewOf(row: PersonReviewRow) {
  return {
    id: row.id,
    kycStatus: row.kyc_status,
    nextKYCReview: row.next_kyc_review,
    reason: row.reason,
    author: row.author,
    at: row.at,
    state: row.state,
  };
}

/** A second reviewer confirms a held decision: it applies as if recorded now. */
export async function confirmPending(
  context: DecisionContext,
  id: string,
): Promise<ConfirmedDecision> {
  const at = context.now().toISOString();
  return decisionsRepository(context.db).inTransaction(async (transaction) => {
    const repository = decisionsRepository(transaction);
    const pending = await openPendingFor(transaction, id, context.caller, 'confirm');
    const closed = await repository.closePending(id, {
      state: 'confirmed',
      by: context.caller.username,
      at,
      reason: null,
    });
    if (!closed) {
      throw new Refusal(
        409,
        'This decision was already closed by another reviewer.',
        'already-closed',
        {
          entityId: pending.legal_entity_id,
        },
      );
    }
    const entityId = pending.legal_entity_id;
    const common = { pendingId: id, recordedBy: pending.requested_by, state: 'confirmed' };
    if (pending.kind === 'person-review') {
      const held = JSON.parse(pending.verification) as HeldPersonReview;
      await repository.setPersonReviewState(held.reviewId, 'applied');
      await applyPersonReview(transaction, entityId, held, at);
      await context.audit(transaction, {
        action: 'person.review',
        entityId,
        detail: {
          ...common,
          reviewId: held.reviewId,
          kycStatus: held.kycStatus,
          nextKYCReview: held.nextKYCReview,
          reason: held.reason,
        },
      });
      const review = await repository.findPersonReview(held.reviewId);
      if (!review)
        throw new Error(`Person review ${held.reviewId} vanished inside its own transaction.`);
      return {
        kind: 'person-review',
        state: 'applied',
        review: personReviewOf(review),
        kycStatus: held.kycStatus,
        nextKYCReview: held.nextKYCReview,
      };
    }
    if (pending.kind === 'risk-level') {
      const held = JSON.parse(pending.verification) as HeldRiskChange;
      await repository.setRiskLevel(entityId, held.to, at);
      await refreshListRecords(transaction, [entityId]);
      await context.audit(transaction, {
        action: 'entity.risk-level',
        entityId,
        detail: { ...common, from: held.from, to: held.to, reason: held.reason },
      });
      const entity = await repository.findEntity(entityId);
      if (!entity) throw new Error(`Entity ${entityId} vanished inside its own transaction.`);
      return { kind: 'risk-level', state: 'applied', kycMetaData: kycMetaDataOf(entity) };
    }
    const outcome = JSON.parse(pending.verification) as RecordVerification;
    const applied = await applyOutcome(transaction, entityId, outcome, at);
    await context.audit(transaction, {
      entityId,
      detail: {
        pendingId: id,
        verificationId: applied.verification.id,
        status: outcome.verificationStatus,
        recordedBy: pending.requested_by,
      },
    });
    return { ...applied, kind: 'verification' };
  });
}

/** A second reviewer rejects a held decision: it is discarded (kept as rejected, with the reason). */
export async function rejectPending(
  context: DecisionContext,
  id: string,
  reason: string,
): Promise<PendingVerification> {
  const at = context.now().toISOString();
  return decisionsRepository(context.db).inTransaction(async (transaction) => {
    const repository = decisionsRepository(transaction);
    const pending = await openPendingFor(transaction, id, context.caller, 'reject');
    const closed = await repository.closePending(id, {
      state: 'rejected',
      by: context.caller.username,
      at,
      reason,
    });
    if (!closed) {
      throw new Refusal(
        409,
        'This decision was already closed by another reviewer.',
        'already-closed',
        {
          entityId: pending.legal_entity_id,
        },
      );
    }
    if (pending.kind === 'person-review') {
      const held = JSON.parse(pending.verification) as HeldPersonReview;
      await repository.setPersonReviewState(held.reviewId, 'rejected');
    }
    await context.audit(transaction, {
      entityId: pending.legal_entity_id,
      detail: {
        pendingId: id,
        kind: pending.kind,
        status: heldStatusOf(pending),
        reason,
        recordedBy: pending.requested_by,
      },
    });
    return pendingOf({
      ...pending,
      state: 'rejected',
      decided_by: context.caller.username,
      decided_at: at,
      reason,
    });
  });
}

/** Approves or rejects a document, recording who, when and why; 404 for an unknown document. */
export async function decideDocument(
  context: DecisionContext,
  documentId: string,
  decision: DocumentDecision,
): Promise<DocumentMetadata> {
  const at = context.now().toISOString();
  return decisionsRepository(context.db).inTransaction(async (transaction) => {
    const repository = decisionsRepository(transaction);
    const document = await repository.findDocumentOwner(documentId);
    if (!document) throw new ApiError(404, `No document has the id ${documentId}.`);
    await repository.decideDocument(documentId, {
      approved: decision.documentApproved,
      by: context.caller.username,
      at,
      reason: decision.reason ?? null,
    });
    await refreshListRecords(transaction, [document.entity_id]);
    await context.audit(transaction, {
      entityId: document.entity_id,
      documentId,
      detail: {
        approved: decision.documentApproved,
        reason: decision.reason ?? null,
        fileName: document.file_name,
      },
    });
    const row = await documentsRepository(transaction).findStored(documentId);
    if (!row) throw new Error(`Document ${documentId} vanished inside its own transaction.`);
    return documentMetadataOf(row);
  });
}
