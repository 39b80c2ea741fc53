import type { Insertable, Selectable } from 'kysely';
import { digitsOnly } from '../../contract/identifiers.ts';
import { foldForSearch } from '../../contract/search-text.ts';
import type { Db } from '../db/database.ts';
import { isUniqueViolation } from '../db/engine.ts';
import type {
  ClientResponseTable,
  ClientUpdateAttemptTable,
  ClientUpdateConfigTable,
  ClientUpdateRequestTable,
} from '../db/schema.ts';
import { phoneSearchDigits } from '../entities/read-model/phone-search.ts';

export type ClientUpdateConfigRow = Selectable<ClientUpdateConfigTable>;
export type ClientUpdateRequestRow = Selectable<ClientUpdateRequestTable> & {
  /** The requesting account's display name; null once the account is gone. */
  requested_by_name: string | null;
};

export type ClientUpdateAttemptRow = Selectable<ClientUpdateAttemptTable>;
export type ClientResponseRow = Selectable<ClientResponseTable>;

/** A portal link's request with what the page shows: the configuration and the contact's record. */
export type PortalRequestRow = Selectable<ClientUpdateRequestTable> & {
  config_name: string | null;
  config_description: string | null;
  company_name: string | null;
  entity_country: string | null;
  person_email: string | null;
  person_phone: string | null;
  person_address: string | null;
  person_country: string | null;
};

/** The contact fields a client may correct through the portal. */
export interface ContactFields {
  email?: string;
  phone?: string;
  address?: string;
}

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
    async claimAttempt(
      attempt: {
        request_id: string;
        kind: 'resend' | 'reminder';
        at: string;
        sent_by: string;
        idempotency_key: string | null;
      },
      afterAttempt: number,
    ): Promise<number | undefined> {
      // The number after the attempt the caller's check saw: a click whose check predates
      // another's e-mail claims a number already taken, and sends nothing.
      const next = afterAttempt + 1;
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
        token_hash: string | null;
      },
    ): Promise<void> {
      await db
        .updateTable('client_update_requests')
        .set(delivery)
        .where('id', '=', requestId)
        .execute();
    },

    /** A reminder's new link: the earlier link stops working, its expiry stays. */
    async replaceToken(requestId: string, tokenHash: string): Promise<void> {
      await db
        .updateTable('client_update_requests')
        .set({ token_hash: tokenHash })
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

    /** Runs `work` in one transaction with a repository bound to it. */
    inTransaction<T>(work: (transaction: Db) => Promise<T>): Promise<T> {
      return db.transaction().execute(work);
    },

    findByTokenHash(tokenHash: string): Promise<PortalRequestRow | undefined> {
      return db
        .selectFrom('client_update_requests')
        .leftJoin(
          'client_update_configs',
          'client_update_configs.config_id',
          'client_update_requests.config_id',
        )
        .leftJoin('legal_entities', 'legal_entities.entity_id', 'client_update_requests.entity_id')
        .leftJoin(
          'natural_persons',
          'natural_persons.entity_id',
          'client_update_requests.recipient_id',
        )
        .selectAll('client_update_requests')
        .select([
          'client_update_configs.name as config_name',
          'client_update_configs.description as config_description',
          'legal_entities.company_name as company_name',
          'legal_entities.country as entity_country',
          'natural_persons.email as person_email',
          'natural_persons.phone as person_phone',
          'natural_persons.address as person_address',
          'natural_persons.country_code as person_country',
        ])
        .where('client_update_requests.token_hash', '=', tokenHash)
        .executeTakeFirst();
    },

    async insertResponse(row: ClientResponseRow): Promise<void> {
      await db.insertInto('client_responses').values(row).execute();
    },

    findResponse(requestId: string): Promise<ClientResponseRow | undefined> {
      return db
        .selectFrom('client_responses')
        .selectAll()
        .where('request_id', '=', requestId)
        .executeTakeFirst();
    },

    /** Records what a reviewer did with the corrections, once; true if this call decided it. */
    async decideContact(
      requestId: string,
      decision: { outcome: 'applied' | 'dismissed'; by: string; at: string },
    ): Promise<boolean> {
      const result = await db
        .updateTable('client_responses')
        .set({
          contact_outcome: decision.outcome,
          contact_decided_by: decision.by,
          contact_decided_at: decision.at,
        })
        .where('request_id', '=', requestId)
        .where('contact_outcome', 'is', null)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** Writes corrected contact fields on the person with the copies search compares. */
    async updatePersonContact(
      personId: string,
      fields: ContactFields,
      phoneCountry: string | null,
    ): Promise<void> {
      const phone =
        fields.phone === undefined ? undefined : phoneSearchDigits(fields.phone, phoneCountry);
      await db
        .updateTable('natural_persons')
        .set({
          ...(fields.email === undefined
            ? {}
            : { email: fields.email, email_folded: foldForSearch(fields.email) }),
          ...(fields.address === undefined ? {} : { address: fields.address }),
          ...(fields.phone === undefined || phone === undefined
            ? {}
            : {
                phone: fields.phone,
                phone_digits: digitsOnly(fields.phone),
                phone_international_digits: phone.international,
                phone_national_digits: phone.national,
              }),
        })
        .where('entity_id', '=', personId)
        .execute();
    },

    /** The person's contact details as the record has them now. */
    findContactOf(personId: string) {
      return db
        .selectFrom('natural_persons')
        .select(['email', 'phone', 'address', 'country_code as country'])
        .where('entity_id', '=', personId)
        .executeTakeFirst();
    },

    /** Documents a client sent with the request's answer, in the order received. */
    listClientDocuments(requestId: string) {
      return db
        .selectFrom('documents')
        .selectAll()
        .where('client_request_id', '=', requestId)
        .orderBy('file_name')
        .orderBy('id')
        .execute();
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
