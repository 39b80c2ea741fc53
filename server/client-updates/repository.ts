import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../db/database.ts';
import { isUniqueViolation } from '../db/engine.ts';
import type {
  ClientUpdateAttemptTable,
  ClientUpdateConfigTable,
  ClientUpdateRequestTable,
} from '../db/schema.ts';

export type ClientUpdateConfigRow = Selectable<ClientUpdateConfigTable>;
export type ClientUpdateRequestRow = Selectable<ClientUpdateRequestTable> & {
  /** The requesting account's display name; null once the account is gone. */
  requested_by_name: string | null;
};

export type ClientUpdateAttemptRow = Selectable<ClientUpdateAttemptTable>;

export interface LinkedPerson {
  id: string;
  firstName: string;
  middleName: string | null;
  lastName: string;
  email: string | null;
}

/** The only place with SQL for client updates. */
export function clientUpdatesRepository(db: Db) {
  return {
    listConfigs(): Promise<ClientUpdateConfigRow[]> {
      return db.selectFrom('client_update_configs').selectAll().orderBy('config_id').execute();
    },

    findConfig(configId: number): Promise<ClientUpdateConfigRow | undefined> {
      return db
        .selectFrom('client_update_configs')
        .selectAll()
        .where('config_id', '=', configId)
        .executeTakeFirst();
    },

    async legalEntityExists(entityId: string): Promise<boolean> {
      const row = await db
        .selectFrom('legal_entities')
        .select('entity_id')
        .where('entity_id', '=', entityId)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** The natural person if linked to the legal entity under any relationship. */
    findLinkedPerson(legalEntityId: string, personId: string): Promise<LinkedPerson | undefined> {
      return db
        .selectFrom('entity_links')
        .innerJoin('natural_persons', 'natural_persons.entity_id', 'entity_links.person_id')
        .select([
          'natural_persons.entity_id as id',
          'natural_persons.first_name as firstName',
          'natural_persons.middle_name as middleName',
          'natural_persons.last_name as lastName',
          'natural_persons.email as email',
        ])
        .where('entity_links.legal_entity_id', '=', legalEntityId)
        .where('entity_links.person_id', '=', personId)
        .limit(1)
        .executeTakeFirst();
    },

    /** A new request with its first e-mail's outcome, together. */
    async insertRequest(
      row: Insertable<ClientUpdateRequestTable>,
      first: { sent_by: string; at: string },
    ): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('client_update_requests').values(row).execute();
        await trx
          .insertInto('client_update_attempts')
          .values({
            request_id: row.id,
            attempt: 1,
            kind: 'first',
            outcome: row.status,
            at: first.at,
            error: row.error ?? null,
            sent_by: first.sent_by,
          })
          .execute();
      });
    },

    /** Every e-mail of these requests, oldest first within each. */
    listAttempts(requestIds: readonly string[]): Promise<ClientUpdateAttemptRow[]> {
      if (requestIds.length === 0) return Promise.resolve([]);
      return db
        .selectFrom('client_update_attempts')
        .selectAll()
        .where('request_id', 'in', requestIds)
        .orderBy('request_id')
        .orderBy('attempt')
        .execute();
    },

    findAttemptByKey(requestId: string, key: string): Promise<ClientUpdateAttemptRow | undefined> {
      return db
        .selectFrom('client_update_attempts')
        .selectAll()
        .where('request_id', '=', requestId)
        .where('idempotency_key', '=', key)
        .executeTakeFirst();
    },

    /**
     * Claims the next attempt number before the e-mail goes out (outcome `sending`); false when a
     * concurrent click claimed it (or the same Idempotency-Key) first, so only one e-mail is sent.
     */
    async claimAttempt(attempt: {
      request_id: string;
      kind: 'resend' | 'reminder';
      at: string;
      sent_by: string;
      idempotency_key: string | null;
    }): Promise<number | undefined> {
      const last = await db
        .selectFrom('client_update_attempts')
        .select((eb) => eb.fn.max('attempt').as('attempt'))
        .where('request_id', '=', attempt.request_id)
        .executeTakeFirst();
      const next = Number(last?.attempt ?? 0) + 1;
      try {
        await db
          .insertInto('client_update_attempts')
          .values({ ...attempt, attempt: next, outcome: 'sending', error: null })
          .execute();
        return next;
      } catch (error) {
        if (isUniqueViolation(error)) return undefined;
        throw error;
      }
    },

    async finishAttempt(
      requestId: string,
      attempt: number,
      outcome: { outcome: 'sent' | 'failed'; at: string; error: string | null },
    ): Promise<void> {
      await db
        .updateTable('client_update_attempts')
        .set(outcome)
        .where('request_id', '=', requestId)
        .where('attempt', '=', attempt)
        .execute();
    },

    findRequest(entityId: string, requestId: string): Promise<ClientUpdateRequestRow | undefined> {
      return db
        .selectFrom('client_update_requests')
        .leftJoin('accounts', 'accounts.username', 'client_update_requests.requested_by')
        .selectAll('client_update_requests')
        .select('accounts.display_name as requested_by_name')
        .where('client_update_requests.entity_id', '=', entityId)
        .where('client_update_requests.id', '=', requestId)
        .executeTakeFirst();
    },

    /** Records the outcome of sending a failed request again. */
    async updateDelivery(
      requestId: string,
      delivery: {
        status: 'sent' | 'failed';
        state: 'sent' | 'failed';
        error: string | null;
        sent_at: string | null;
        expires_at: string | null;
      },
    ): Promise<void> {
      await db
        .updateTable('client_update_requests')
        .set(delivery)
        .where('id', '=', requestId)
        .execute();
    },

    /** `sent` → `opened`, the first time the client opens a link that still works; true if it moved. */
    async markOpened(requestId: string, at: string): Promise<boolean> {
      const result = await db
        .updateTable('client_update_requests')
        .set({ state: 'opened', opened_at: at })
        .where('id', '=', requestId)
        .where('state', '=', 'sent')
        .where('expires_at', '>', at)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** `sent` or `opened` → `submitted` while the link works: the client answered; true if it moved. */
    async markSubmitted(requestId: string, at: string): Promise<boolean> {
      const result = await db
        .updateTable('client_update_requests')
        .set({ state: 'submitted', submitted_at: at })
        .where('id', '=', requestId)
        .where('state', 'in', ['sent', 'opened'])
        .where('expires_at', '>', at)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** `submitted` → `reviewed`; true if it moved (a second reviewer's click changes nothing). */
    async markReviewed(requestId: string, by: string, at: string): Promise<boolean> {
      const result = await db
        .updateTable('client_update_requests')
        .set({ state: 'reviewed', reviewed_at: at, reviewed_by: by })
        .where('id', '=', requestId)
        .where('state', '=', 'submitted')
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    listRequests(entityId: string): Promise<ClientUpdateRequestRow[]> {
      return db
        .selectFrom('client_update_requests')
        .leftJoin('accounts', 'accounts.username', 'client_update_requests.requested_by')
        .selectAll('client_update_requests')
        .select('accounts.display_name as requested_by_name')
        .where('client_update_requests.entity_id', '=', entityId)
        .orderBy('client_update_requests.created_at', 'desc')
        .orderBy('client_update_requests.id', 'desc')
        .execute();
    },
  };
}

export type ClientUpdatesRepository = ReturnType<typeof clientUpdatesRepository>;
