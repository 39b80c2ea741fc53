import crypto from 'node:crypto';
import type {
  DocumentDecision,
  PendingVerification,
  RecordedVerification,
  RecordVerification,
} from '../../src/contract/decisions.ts';
import { currentVerificationOf } from '../../src/contract/current-verification.ts';
import type { DocumentMetadata } from '../../src/contract/entities.ts';
import type { Caller } from '../auth/caller.ts';
import type { Db } from '../db/database.ts';
import type { Config } from '../env.ts';
import { isUniqueViolation } from '../db/engine.ts';
import type { VerificationRow } from '../db/schema.ts';
import { documentMetadataOf } from '../documents/mappers.ts';
import { documentsRepository } from '../documents/repository.ts';
import { entitiesRepository } from '../entities/repository.ts';
import { refreshListRecords } from '../entities/list-records.ts';
import { datedVerificationOf, verificationOf } from '../entities/mappers.ts';
import { ApiError } from '../http/errors.ts';
import { decisionsRepository, type PendingVerificationRow } from './repository.ts';

/** What a change adds to the audit trail besides who asked (decisions.md, "Extensions"). */
export interface ChangeAuditEvent {
  entityId: string;
  documentId?: string;
  detail: Record<string, unknown>;
}

/** Writes the change's audit event inside the change's own transaction, so both commit or neither. */
export type AuditInTransaction = (transaction: Db, event: ChangeAuditEvent) => Promise<void>;

export interface DecisionContext {
  db: Db;
  now: () => Date;
  fourEyes: Config['fourEyes'];
  caller: Pick<Caller, 'accountId' | 'username'>;
  audit: AuditInTransaction;
}

const PENDING_EXISTS =
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

function pendingOf(row: PendingVerificationRow): PendingVerification {
  return {
    id: row.id,
    entityId: row.legal_entity_id,
    verification: JSON.parse(row.verification) as RecordVerification,
    rule: row.rule === 'all' ? 'all' : 'high',
    requestedBy: row.requested_by,
    requestedAt: row.requested_at,
    state: row.state,
    decidedBy: row.decided_by,
    decidedAt: row.decided_at,
    reason: row.reason,
  };
}

/**
 * When the outcome is recorded: now, or a millisecond after the entity's latest verification when
 * the clock has not moved past it (one millisecond, or another instance's clock ahead), so that
 * created_at always gives the order recorded.
 */
function recordedAt(stored: readonly VerificationRow[], at: string): string {
  const latest = stored.reduce((max, row) => (row.created_at > max ? row.created_at : max), '');
  if (latest < at) return at;
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
    created_at: recordedAt(stored, at),
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
    if ((await repository.findPendingOfEntity(entityId)).length > 0) {
      throw new ApiError(409, PENDING_EXISTS);
    }
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
    const row: PendingVerificationRow = {
      id: crypto.randomUUID(),
      legal_entity_id: entityId,
      verification: JSON.stringify(outcome),
      rule,
      requested_by: context.caller.username,
      requested_by_account: context.caller.accountId,
      requested_at: at,
      state: 'pending',
      decided_by: null,
      decided_at: null,
      reason: null,
    };
    try {
      await repository.insertPending(row);
    } catch (error) {
      // Another reviewer's decision got in between the check above and this insert.
      if (isUniqueViolation(error)) throw new ApiError(409, PENDING_EXISTS);
      throw error;
    }
    await context.audit(transaction, {
      entityId,
      detail: {
        pendingId: row.id,
        status: outcome.verificationStatus,
        nextReviewDate: outcome.nextReviewDate,
        held: true,
        rule,
      },
    });
    return { state: 'pending', pending: pendingOf(row) };
  });
}

/** The decisions on this legal entity waiting for a second reviewer (at most one); 404 for an unknown one. */
export async function pendingOfEntity(db: Db, entityId: string): Promise<PendingVerification[]> {
  const repository = decisionsRepository(db);
  if (!(await repository.findLegalEntity(entityId))) {
    throw new ApiError(404, `No legal entity has the id ${entityId}.`);
  }
  return (await repository.findPendingOfEntity(entityId)).map(pendingOf);
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
  if (pending.state !== 'pending') {
    throw new ApiError(
      409,
      `This decision was already ${pending.state}; there is nothing to ${verb}.`,
    );
  }
  if (pending.requested_by_account === caller.accountId) {
    throw new ApiError(
      403,
      `Four-eyes rule: a decision must be ${verb === 'confirm' ? 'confirmed' : 'rejected'} by another account than the one that recorded it.`,
    );
  }
  return pending;
}

/** A second reviewer confirms a held decision: it applies as if recorded now. */
export async function confirmPending(
  context: DecisionContext,
  id: string,
): Promise<RecordedVerification> {
  const at = context.now().toISOString();
  return decisionsRepository(context.db).inTransaction(async (transaction) => {
    const pending = await openPendingFor(transaction, id, context.caller, 'confirm');
    const closed = await decisionsRepository(transaction).closePending(id, {
      state: 'confirmed',
      by: context.caller.username,
      at,
      reason: null,
    });
    if (!closed) throw new ApiError(409, 'This decision was already closed by another reviewer.');
    const outcome = JSON.parse(pending.verification) as RecordVerification;
    const applied = await applyOutcome(transaction, pending.legal_entity_id, outcome, at);
    await context.audit(transaction, {
      entityId: pending.legal_entity_id,
      detail: {
        pendingId: id,
        verificationId: applied.verification.id,
        status: outcome.verificationStatus,
        recordedBy: pending.requested_by,
      },
    });
    return applied;
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
    const pending = await openPendingFor(transaction, id, context.caller, 'reject');
    const closed = await decisionsRepository(transaction).closePending(id, {
      state: 'rejected',
      by: context.caller.username,
      at,
      reason,
    });
    if (!closed) throw new ApiError(409, 'This decision was already closed by another reviewer.');
    await context.audit(transaction, {
      entityId: pending.legal_entity_id,
      detail: { pendingId: id, reason, recordedBy: pending.requested_by },
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
      detail: { approved: decision.documentApproved, reason: decision.reason ?? null },
    });
    const row = await documentsRepository(transaction).findStored(documentId);
    if (!row) throw new Error(`Document ${documentId} vanished inside its own transaction.`);
    return documentMetadataOf(row);
  });
}
