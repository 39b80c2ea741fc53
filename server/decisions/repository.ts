import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../db/database.ts';
import type {
  EntityRow,
  PendingVerificationTable,
  PersonReviewTable,
  VerificationRow,
} from '../db/schema.ts';
import { takeFirstPrepared } from '../db/prepared-statements.ts';

export type PendingVerificationRow = Selectable<PendingVerificationTable>;
export type PersonReviewRow = Selectable<PersonReviewTable>;

/** A held decision with what names its entity, as the "waiting for me" list shows it. */
export interface WaitingDecisionRow extends PendingVerificationRow {
  entity_kind: 'legal' | 'person';
  company_name: string | null;
  first_name: string | null;
  middle_name: string | null;
  last_name: string | null;
}

/**
 * The only place with SQL for review outcomes, person reviews, risk levels, pending (four-eyes)
 * decisions and document decisions.
 */
export function decisionsRepository(db: Db) {
  return {
    /** Runs `work` in one transaction (BEGIN IMMEDIATE on SQLite), with repositories bound to it. */
    inTransaction<T>(work: (transaction: Db) => Promise<T>): Promise<T> {
      return db.transaction().execute(work);
    },

    /** The legal entity's id and risk level, or undefined when no legal entity has this id. */
    findLegalEntity(id: string): Promise<{ id: string; risk_level: string } | undefined> {
      return db
        .selectFrom('entities')
        .select(['id', 'risk_level'])
        .where('id', '=', id)
        .where('kind', '=', 'legal')
        .executeTakeFirst();
    },

    /** The entity (legal entity or natural person), or undefined when none has this id. */
    findEntity(id: string): Promise<EntityRow | undefined> {
      return db.selectFrom('entities').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** The natural person's id and risk level, or undefined when no natural person has this id. */
    findNaturalPerson(id: string): Promise<{ id: string; risk_level: string } | undefined> {
      return db
        .selectFrom('entities')
        .select(['id', 'risk_level'])
        .where('id', '=', id)
        .where('kind', '=', 'person')
        .executeTakeFirst();
    },

    async setRiskLevel(entityId: string, riskLevel: string, at: string): Promise<void> {
      await db
        .updateTable('entities')
        .set({ risk_level: riskLevel, last_update: at })
        .where('id', '=', entityId)
        .execute();
    },

    async insertPersonReview(row: PersonReviewRow): Promise<void> {
      await db.insertInto('person_reviews').values(row).execute();
    },

    async setPersonReviewState(id: string, state: PersonReviewRow['state']): Promise<void> {
      await db.updateTable('person_reviews').set({ state }).where('id', '=', id).execute();
    },

    findPersonReview(id: string): Promise<PersonReviewRow | undefined> {
      return db.selectFrom('person_reviews').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** The person's reviews, newest first. */
    listPersonReviews(entityId: string): Promise<PersonReviewRow[]> {
      return db
        .selectFrom('person_reviews')
        .selectAll()
        .where('entity_id', '=', entityId)
        .orderBy('at', 'desc')
        .orderBy('id', 'desc')
        .execute();
    },

    async insertVerification(row: VerificationRow): Promise<void> {
      await db.insertInto('verifications').values(row).execute();
    },

    /** The entity's current status and next review follow its newest outcome. */
    async setCurrentReview(
      entityId: string,
      review: { kycStatus: string; nextKycReview: string; at: string },
    ): Promise<void> {
      await db
        .updateTable('entities')
        .set({
          kyc_status: review.kycStatus,
          next_kyc_review: review.nextKycReview,
          last_update: review.at,
        })
        .where('id', '=', entityId)
        .execute();
    },

    findPendingOfEntity(entityId: string): Promise<PendingVerificationRow[]> {
      return db
        .selectFrom('pending_verifications')
        .selectAll()
        .where('legal_entity_id', '=', entityId)
        .where('state', '=', 'pending')
        .orderBy('requested_at')
        .orderBy('id')
        .execute();
    },

    /**
     * Held decisions another account than `accountId` recorded, oldest first (requested_at, id)
     * after `after`, with the entity's kind and names; pending_verifications_waiting (0026).
     */
    waitingFor(
      accountId: string,
      after: { at: string; id: string } | undefined,
      limit: number,
    ): Promise<WaitingDecisionRow[]> {
      return db
        .selectFrom('pending_verifications')
        .innerJoin('entities', 'entities.id', 'pending_verifications.legal_entity_id')
        .leftJoin('legal_entities', 'legal_entities.entity_id', 'entities.id')
        .leftJoin('natural_persons', 'natural_persons.entity_id', 'entities.id')
        .selectAll('pending_verifications')
        .select([
          'entities.kind as entity_kind',
          'legal_entities.company_name',
          'natural_persons.first_name',
          'natural_persons.middle_name',
          'natural_persons.last_name',
        ])
        .where('pending_verifications.state', '=', 'pending')
        .where('pending_verifications.requested_by_account', '<>', accountId)
        .$if(after !== undefined, (query) =>
          query.where((eb) =>
            eb(
              eb.refTuple('pending_verifications.requested_at', 'pending_verifications.id'),
              '>',
              eb.tuple(after?.at ?? '', after?.id ?? ''),
            ),
          ),
        )
        .orderBy('pending_verifications.requested_at')
        .orderBy('pending_verifications.id')
        .limit(limit)
        .execute();
    },

    /** How many held decisions wait for `accountId` (recorded by another account); prepared, on every overview. */
    async countWaitingFor(accountId: string): Promise<number> {
      const row = await takeFirstPrepared(
        db,
        db
          .selectFrom('pending_verifications')
          .select((eb) => eb.fn.countAll<number | string>().as('count'))
          .where('state', '=', 'pending')
          .where('requested_by_account', '<>', accountId),
      );
      // PostgreSQL's count() is a bigint, which pg returns as a string.
      return Number(row?.count ?? 0);
    },

    findPending(id: string): Promise<PendingVerificationRow | undefined> {
      return db
        .selectFrom('pending_verifications')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
    },

    /** Throws a unique violation when the entity already has a pending decision. */
    async insertPending(row: Insertable<PendingVerificationTable>): Promise<void> {
      await db.insertInto('pending_verifications').values(row).execute();
    },

    /**
     * Closes a pending decision; false when it was no longer pending (another reviewer got there
     * first). On PostgreSQL the row lock makes a concurrent second close wait and then find nothing.
     */
    async closePending(
      id: string,
      outcome: { state: 'confirmed' | 'rejected'; by: string; at: string; reason: string | null },
    ): Promise<boolean> {
      const result = await db
        .updateTable('pending_verifications')
        .set({
          state: outcome.state,
          decided_by: outcome.by,
          decided_at: outcome.at,
          reason: outcome.reason,
        })
        .where('id', '=', id)
        .where('state', '=', 'pending')
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    findDocumentOwner(
      id: string,
    ): Promise<{ id: string; entity_id: string; file_name: string } | undefined> {
      return db
        .selectFrom('documents')
        .select(['id', 'entity_id', 'file_name'])
        .where('id', '=', id)
        .executeTakeFirst();
    },

    async decideDocument(
      id: string,
      decision: { approved: boolean; by: string; at: string; reason: string | null },
    ): Promise<void> {
      await db
        .updateTable('documents')
        .set({
          approved: decision.approved ? 1 : 0,
          decided_by: decision.by,
          decided_at: decision.at,
          decision_reason: decision.reason,
        })
        .where('id', '=', id)
        .execute();
    },
  };
}
