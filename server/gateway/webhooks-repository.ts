import type { Db } from '../db/database.ts';
import type { RelayedClientUpdateTable, WebhookEventTable } from '../db/schema.ts';
import type { Selectable } from 'kysely';

export type RelayedRequestRow = Selectable<RelayedClientUpdateTable>;

/** The only place with SQL for the identity service's webhook events and the states they move. */
export function webhooksRepository(db: Db) {
  return {
    async isStored(eventId: string): Promise<boolean> {
      const row = await db
        .selectFrom('webhook_events')
        .select('event_id')
        .where('event_id', '=', eventId)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** Stores the event unless its id is known; true when this call stored it. */
    async storeEvent(row: WebhookEventTable): Promise<boolean> {
      const stored = await db
        .insertInto('webhook_events')
        .values(row)
        .onConflict((conflict) => conflict.column('event_id').doNothing())
        .returning('event_id')
        .executeTakeFirst();
      return stored !== undefined;
    },

    /** Sets which request an event moved, once it has. */
    async linkEvent(eventId: string, requestId: string): Promise<void> {
      await db
        .updateTable('webhook_events')
        .set({ request_id: requestId })
        .where('event_id', '=', eventId)
        .execute();
    },

    /** The entity's newest request still waiting for the client at `at` (sent or opened, link valid). */
    openRequestOf(entityId: string, at: string): Promise<RelayedRequestRow | undefined> {
      return db
        .selectFrom('relayed_client_update_requests')
        .selectAll()
        .where('entity_id', '=', entityId)
        .where('state', 'in', ['sent', 'opened'])
        .where('expires_at', '>', at)
        .orderBy('position', 'desc')
        .limit(1)
        .executeTakeFirst();
    },

    /** `sent`/`opened` → `submitted`; true if it moved (another event got there first: false). */
    async markSubmitted(position: number, at: string): Promise<boolean> {
      const result = await db
        .updateTable('relayed_client_update_requests')
        .set({ state: 'submitted', submitted_at: at })
        .where('position', '=', position)
        .where('state', 'in', ['sent', 'opened'])
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    findRelayedRequest(
      entityId: string,
      requestId: string,
    ): Promise<RelayedRequestRow | undefined> {
      return db
        .selectFrom('relayed_client_update_requests')
        .selectAll()
        .where('entity_id', '=', entityId)
        .where('request_id', '=', requestId)
        .orderBy('position', 'desc')
        .limit(1)
        .executeTakeFirst();
    },

    /** `submitted` → `reviewed`; true if it moved. */
    async markReviewed(position: number, by: string, at: string): Promise<boolean> {
      const result = await db
        .updateTable('relayed_client_update_requests')
        .set({ state: 'reviewed', reviewed_at: at, reviewed_by: by })
        .where('position', '=', position)
        .where('state', '=', 'submitted')
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
  };
}
