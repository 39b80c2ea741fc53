import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../db/database.ts';
import type { ClientUpdateConfigTable, ClientUpdateRequestTable } from '../db/schema.ts';

export type ClientUpdateConfigRow = Selectable<ClientUpdateConfigTable>;
export type ClientUpdateRequestRow = Selectable<ClientUpdateRequestTable> & {
  /** The requesting account's display name; null once the account is gone. */
  requested_by_name: string | null;
};

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

    async insertRequest(row: Insertable<ClientUpdateRequestTable>): Promise<void> {
      await db.insertInto('client_update_requests').values(row).execute();
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
